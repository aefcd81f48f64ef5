/** `claude-a2a demo` as a user runs it (the built `dist/cli.js demo`, what `npm run demo` runs). */
import { execFile, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const BUILT_CLI = fileURLToPath(new URL("../../../dist/cli.js", import.meta.url));

export interface DemoProcess {
  readonly url: string;
  /** What it printed on standard output (the banner). */
  stdout(): string;
  output(): string;
  /** Sends SIGINT (Ctrl-C) and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts the demo on `port` with `env`, resolving once it printed its banner. */
export async function startDemo(o: {
  port: number;
  env: NodeJS.ProcessEnv;
  args?: readonly string[];
}): Promise<DemoProcess> {
  const child = spawn(
    process.execPath,
    [BUILT_CLI, "demo", "--port", String(o.port), ...(o.args ?? [])],
    { env: o.env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let all = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      all += d.toString();
      if (stdout.includes("  console: ")) resolve();
    });
    child.stderr.on("data", (d: Buffer) => (all += d.toString()));
    void exited.then((code) =>
      reject(new Error(`the demo exited (${code}) before its banner:\n${all}`)),
    );
  });
  return {
    url: `http://127.0.0.1:${o.port}`,
    stdout: () => stdout,
    output: () => all,
    stop: () => {
      child.kill("SIGINT");
      return exited;
    },
  };
}

/**
 * One client command line (`claude-a2a …` words), its standard output and error merged as a
 * terminal shows them, not a terminal itself (so no colours).
 */
export function runClientCommand(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      "/bin/sh",
      ["-c", 'exec "$0" "$@" 2>&1', process.execPath, BUILT_CLI, ...args],
      { env, timeout: 60_000 },
      (err, stdout) => {
        const code = err === null ? 0 : typeof err.code === "number" ? err.code : -1;
        resolve({ code, output: stdout });
      },
    );
  });
}
