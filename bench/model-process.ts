/** The scripted model with the benchmark's rules, as its own process on 127.0.0.1. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../test/support/fake-model-cli.ts", import.meta.url));
const RULES = fileURLToPath(new URL("./model-rules.ts", import.meta.url));
const TSX = new URL("../node_modules/tsx/dist/loader.mjs", import.meta.url).href;

export interface ModelProcess {
  readonly url: string;
  readonly pid: number;
  close(): Promise<void>;
}

export async function startModelProcess(): Promise<ModelProcess> {
  const child = spawn(
    process.execPath,
    ["--import", TSX, CLI, "--host", "127.0.0.1", "--port", "0", "--script", RULES],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // Never outlive the bench, however it ends (an orphan would hold its output pipe open).
  const orphanGuard = () => child.kill("SIGKILL");
  process.once("exit", orphanGuard);
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    void exited.then(() => reject(new Error(`the scripted model exited:\n${out}`)));
  });
  if (child.pid === undefined) throw new Error("the scripted model did not start");
  const pid = child.pid;
  return {
    url,
    pid,
    async close() {
      process.off("exit", orphanGuard);
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
