import { spawn } from "node:child_process";
import { killProcessGroup } from "../common/process-group.js";
import type { CheckRun } from "../contract/delivery.js";
import type { DeliveryCheckConfig } from "../config/delivery-schema.js";
import { checkCommand, type CheckSandbox } from "./check-command.js";
import { outputTail } from "./output-tail.js";

/** What is kept of a check's output while it runs: enough for its tail, never all of it. */
const KEEP_CHARS = 64 * 1024;

export interface CheckRunOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly sandbox?: CheckSandbox | undefined;
  /** Aborted: the task ended (canceled); the check is killed. */
  readonly signal?: AbortSignal;
}

/**
 * Runs one check to its end: its own process group, killed whole past `timeoutSeconds` (or on
 * `signal`), its output's tail kept. Never throws: a command that cannot start is a failed check
 * whose output says why.
 */
export function runCheck(
  check: DeliveryCheckConfig,
  round: number,
  o: CheckRunOptions,
): Promise<CheckRun> {
  const { file, args } = checkCommand(check.command, o.cwd, o.sandbox);
  const started = performance.now();
  let output = "";
  const keep = (chunk: Buffer | string) => {
    output = (output + chunk.toString()).slice(-KEEP_CHARS);
  };
  return new Promise((resolve) => {
    let timedOut = false;
    const child = spawn(file, args, {
      cwd: o.cwd,
      env: o.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const killAll = () => killProcessGroup(child);
    const timer = setTimeout(() => {
      timedOut = true;
      killAll();
    }, check.timeoutSeconds * 1000);
    o.signal?.addEventListener("abort", killAll, { once: true });
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const done = (exitCode: number | null) => {
      clearTimeout(timer);
      o.signal?.removeEventListener("abort", killAll);
      resolve({
        round,
        check: check.name,
        command: check.command,
        result: timedOut ? "timed_out" : exitCode === 0 ? "passed" : "failed",
        exitCode: timedOut ? null : exitCode,
        durationMs: Math.round(performance.now() - started),
        outputTail: outputTail(output),
      });
    };
    child.on("error", (err) => {
      keep(`${err.message}\n`);
      done(null);
    });
    child.on("close", (code) => done(code));
  });
}
