import { spawn, type ChildProcess } from "node:child_process";
import { readdir, readFile, writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ConfigInput } from "../../src/config/schema.js";
import type { TestBench } from "./bench.js";
import { testConfig } from "./harness/test-config.js";

const CLI = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));
/** The compiled CLI (`npm run build`), as a user runs it. */
const BUILT_CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
// `--import tsx` would resolve from the server's cwd (a temp dir): name the loader by path.
const TSX = new URL("../../node_modules/tsx/dist/loader.mjs", import.meta.url).href;

export interface ServerProcess {
  readonly pid: number;
  readonly url: string;
  /** Resolves when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything it wrote (stdout and stderr), for a failing test's message. */
  output(): string;
  /** What it wrote on standard output only (its JSON log lines). */
  stdout(): string;
  /** What it wrote on standard error only. */
  stderr(): string;
  kill(signal: NodeJS.Signals): void;
}

/** Writes the test config (`testConfig(extra)`) into the workspace. */
export async function writeTestConfig(cwd: string, extra: ConfigInput = {}): Promise<void> {
  await mkdir(join(cwd, ".claude"), { recursive: true });
  await writeFile(
    join(cwd, ".claude", "claude-a2a.config.json"),
    JSON.stringify(testConfig(extra)),
  );
}

/**
 * `claude-a2a` as a real process (node + tsx on src/cli.ts, so its pid is the server's own), in
 * `cwd`, with `env` as its whole environment (the Claude Code children inherit it). Resolves once
 * `/healthz` answers.
 */
export async function spawnServer(o: {
  cwd: string;
  port: number;
  env: Record<string, string>;
  /** Node options before the script (e.g. `--cpu-prof`, which NODE_OPTIONS refuses). */
  nodeArgs?: readonly string[];
  /** Run the compiled `dist/cli.js` instead of the sources through tsx. */
  built?: boolean;
  /** More command-line arguments (e.g. `--workspace api=…`). */
  args?: readonly string[];
  /** Another compiled CLI to run (the bench's comparison with an earlier build). */
  cli?: string;
  /**
   * How often `/healthz` is tried until it answers (default 100 ms). The bench asks every few ms:
   * what the server does after it listens (its startup sweep) is not its startup.
   */
  pollMs?: number;
}): Promise<ServerProcess> {
  const script =
    o.cli !== undefined ? [o.cli] : o.built === true ? [BUILT_CLI] : ["--import", TSX, CLI];
  const child: ChildProcess = spawn(
    process.execPath,
    [...(o.nodeArgs ?? []), ...script, "--cwd", o.cwd, "--port", String(o.port), ...(o.args ?? [])],
    { cwd: o.cwd, env: { LOG_LEVEL: "info", ...o.env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
    stdout += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    out += d.toString();
    stderr += d.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  if (child.pid === undefined) throw new Error("the server did not start");
  const url = `http://127.0.0.1:${o.port}`;
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`the server exited before it answered:\n${out}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, o.pollMs ?? 100));
  }
  return {
    pid: child.pid,
    url,
    exited,
    output: () => out,
    stdout: () => stdout,
    stderr: () => stderr,
    kill: (signal) => {
      if (!gone) process.kill(child.pid as number, signal);
    },
  };
}

/**
 * Pids of the live processes whose environment names this CLAUDE_CONFIG_DIR: the Claude Code
 * children (and their jobs) of a test's sandbox, whoever their parent is now.
 */
export function processesWithConfigDir(configDir: string): Promise<number[]> {
  return livePids("environ", `CLAUDE_CONFIG_DIR=${configDir}\0`);
}

/** Pids of the live processes whose command line contains `marker` (e.g. a job's arguments). */
export function processesWithCommandLine(marker: string): Promise<number[]> {
  return livePids("cmdline", marker);
}

/** Pids of live (not zombie) processes other than this one whose `/proc/<pid>/<file>` has `needle`. */
async function livePids(file: "environ" | "cmdline", needle: string): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const content = await readFile(`/proc/${pid}/${file}`, "latin1");
      const stat = await readFile(`/proc/${pid}/stat`, "latin1");
      // A zombie has exited already.
      if (content.includes(needle) && !/\) Z /.test(stat)) pids.push(pid);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}

/** Kills, by pid, what `processesWithConfigDir` lists (a test's own leftovers). */
export async function killSandboxProcesses(
  configDir: string,
  except: number[] = [],
): Promise<void> {
  for (const pid of await processesWithConfigDir(configDir)) {
    if (except.includes(pid)) continue;
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/**
 * A process-level test's cleanup: its servers first (SIGKILL, waited for), then whatever Claude
 * Code processes of its sandbox outlived them, then the sandbox and the scripted model.
 */
export async function endProcessTest(
  servers: readonly ServerProcess[],
  bench: TestBench | undefined,
): Promise<void> {
  for (const s of servers) {
    s.kill("SIGKILL");
    await s.exited;
  }
  if (bench) await killSandboxProcesses(bench.sandbox.configDir);
  await bench?.close();
}
