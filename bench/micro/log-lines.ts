/**
 * In-process, interleaved: the cost of the request log line written to a pipe (standard output
 * read by another process, as under a supervisor or the bench), one synchronous write per line
 * (pino's default destination, as before) against `batchedDestination` (now). Each line is
 * logged from its own macrotask, as requests are. Prints the median CPU and wall time per line.
 *
 *   npx tsx bench/micro/log-lines.ts [rounds=7] [lines per round=20000]
 */
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { pino, type DestinationStream } from "pino";
import { batchedDestination } from "../../src/common/logging.js";
import { median } from "../stats.js";

const [rounds = 7, lines = 20_000] = process.argv.slice(2).map(Number);

if (process.env.LOG_LINES_CHILD === undefined) {
  // Our standard output is a pipe that `cat` drains, as a supervisor's would be.
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    env: { ...process.env, LOG_LINES_CHILD: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const sink = spawn("cat", [], { stdio: ["pipe", "ignore", "inherit"] });
  child.stdout.pipe(sink.stdin);
  await new Promise((resolve) => child.on("exit", resolve));
} else {
  const request = (d: DestinationStream) =>
    pino({ level: "info" }, d).child({}, { redact: { paths: [] } });
  const variants = {
    "a write per line (before)": request(pino.destination({ dest: 1, sync: true })),
    "batched (now)": request(batchedDestination(1)),
  };
  const cpu = new Map<string, number[]>(Object.keys(variants).map((k) => [k, []]));
  const wall = new Map<string, number[]>(Object.keys(variants).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    const order = Object.entries(variants);
    if (r % 2 === 1) order.reverse();
    for (const [name, log] of order) {
      const c = process.cpuUsage();
      const t = performance.now();
      for (let i = 0; i < lines; i++) {
        log.info(
          { method: "POST", path: "/a2a/jsonrpc", status: 200, caller: "bench", rpc: "GetTask" },
          "request",
        );
        await new Promise((resolve) => setImmediate(resolve));
      }
      const used = process.cpuUsage(c);
      cpu.get(name)?.push(((used.user + used.system) / lines) * 1);
      wall.get(name)?.push(((performance.now() - t) * 1000) / lines);
    }
  }
  for (const name of Object.keys(variants)) {
    process.stderr.write(
      `${name.padEnd(26)} ${median(cpu.get(name) ?? []).toFixed(1)} µs CPU, ` +
        `${median(wall.get(name) ?? []).toFixed(1)} µs wall a line\n`,
    );
  }
}
