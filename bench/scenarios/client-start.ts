/**
 * Client start (issue 49): the CPU a client command costs before it does anything, against
 * `node -e 0` in the same rounds. `--version` to its exit; `send` to its first request (the
 * agent card), read from `/proc` at the moment that request arrives at a listener on 127.0.0.1,
 * which then ends the client. Every script that calls `send` pays this.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Plan } from "../plan.js";
import { childrenCpuTimeMs, cpuTimePreciseMs } from "../proc.js";
import type { Rig } from "../rig.js";
import type { Row } from "../stats.js";

const CLI = join(process.cwd(), "dist", "cli.js");
const SCENARIO = "client start";
const GROUP = "CPU to exit / first request";

/** The CPU of a short command, from its start to its exit (its waited-for children's time). */
async function cpuToExit(args: readonly string[]): Promise<number> {
  const before = await childrenCpuTimeMs(process.pid);
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", () => resolve());
  });
  return (await childrenCpuTimeMs(process.pid)) - before;
}

/** The CPU `send` has used when its first request reaches `listener`; then it is killed. */
async function cpuToFirstRequest(listener: Server, url: string): Promise<number> {
  const child = spawn(process.execPath, [CLI, "send", "--url", url, "--new", "hello"], {
    stdio: "ignore",
    env: { ...process.env, A2A_TOKEN: "", XDG_CONFIG_HOME: "/nonexistent-bench-config" },
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    return await new Promise<number>((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", () => reject(new Error("send exited before its first request")));
      listener.once("request", (_req, res) => {
        const pid = child.pid ?? 0;
        cpuTimePreciseMs(pid).then(resolve, reject);
        res.destroy();
      });
    });
  } finally {
    child.kill("SIGKILL");
    await exited;
  }
}

export async function clientStart(_rig: Rig, plan: Plan, log: (line: string) => void) {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  const node: number[] = [];
  const version: number[] = [];
  const help: number[] = [];
  const send: number[] = [];
  try {
    // Interleaved, so that the machine's load moves every variant alike; one warm-up round
    // brings the files into the page cache.
    for (let round = -1; round < plan.clientStartRounds; round++) {
      const n = await cpuToExit(["-e", "0"]);
      const v = await cpuToExit([CLI, "--version"]);
      const h = await cpuToExit([CLI, "--help"]);
      const s = await cpuToFirstRequest(listener, url);
      if (round < 0) continue;
      node.push(n);
      version.push(v);
      help.push(h);
      send.push(s);
    }
  } finally {
    listener.closeAllConnections();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  }
  log(`bench: client start: ${plan.clientStartRounds} rounds`);
  const row = (variant: string, samples: number[], extra: Partial<Row> = {}): Row => ({
    scenario: SCENARIO,
    group: GROUP,
    variant,
    unit: "ms",
    samples,
    ...extra,
  });
  return [
    row("node -e 0", node, { baseline: true }),
    row("claude-a2a --version", version, { target: "≤ 1.5×" }),
    row("claude-a2a --help", help, { target: "≤ 1.5×" }),
    row("claude-a2a send, to its first request", send, { target: "≤ 3×" }),
  ];
}
