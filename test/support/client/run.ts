import { runClient } from "../../../src/client/index.js";
import type { ClientEnv } from "../../../src/client/env.js";

export interface RunResult {
  code: number;
  out: string;
  err: string;
}

/** Runs `claude-a2a <argv>` (a client command) in this process, capturing its output. */
export async function runCli(
  argv: string[],
  options: { env: NodeJS.ProcessEnv; stdin?: string; tty?: boolean },
): Promise<RunResult> {
  const out: string[] = [];
  const err: string[] = [];
  const env: ClientEnv = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env: options.env,
    stdoutIsTTY: options.tty ?? false,
    readStdin: () => Promise.resolve(options.stdin ?? ""),
    onInterrupt: () => () => undefined,
  };
  const code = await runClient(argv, env);
  return { code, out: out.join(""), err: err.join("") };
}
