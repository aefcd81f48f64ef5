/**
 * Where the CPU of a long answer goes, on each side of the outside measure (`long-outside.ts`):
 * a plain HTTP SSE client process reading N deltas through the server, against a `query()`
 * process reading the same answer, K rounds each, alternating. Per round: the wall time to the
 * end, and the CPU time (all threads, `/proc`) of every process taking part: the server, its
 * Claude Code process, the client processes, the direct Claude Code process, the scripted model.
 * Nothing else runs against the server. With `BENCH_PROFILE=<dir>` the server writes a V8 CPU
 * profile; the command that summarizes its rounds only is printed at the end.
 *
 *   npx tsx bench/probes/long-cpu.ts [N=5000] [K=5]
 */
import { cpSync, readdirSync, readFileSync, statSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { setTimeout as delay } from "node:timers/promises";
import { queryClient, sseClient, type QueryTiming, type SseTiming } from "../outside.js";
import { longPrompt, startRig } from "../rig.js";

const [nArg = "5000", kArg = "5"] = process.argv.slice(2);
const N = Number(nArg);
const K = Number(kArg);
/** The rounds' start on the monotonic clock (µs), which a V8 CPU profile's `startTime` uses. */
let roundsFrom = 0n;

/** CPU (ms), run-queue wait (ms) and voluntary context switches of every thread of `pids`. */
async function sched(pids: readonly number[]): Promise<{ cpu: number; wait: number; vcs: number }> {
  const out = { cpu: 0, wait: 0, vcs: 0 };
  for (const pid of pids) {
    let tids: string[] = [];
    try {
      tids = await readdir(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const [cpu = 0, wait = 0] = (await readFile(`/proc/${pid}/task/${tid}/schedstat`, "latin1"))
          .split(" ")
          .map(Number);
        const status = await readFile(`/proc/${pid}/task/${tid}/status`, "latin1");
        out.cpu += cpu / 1e6;
        out.wait += wait / 1e6;
        out.vcs += Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      } catch {
        // exited between the listing and the read
      }
    }
  }
  return out;
}
/** The Claude Code runtime's processes among `pids` (not a node process carrying the same env). */
const runtimes = (pids: readonly number[]) =>
  pids.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "latin1").includes("claude-agent-sdk-linux");
    } catch {
      return false;
    }
  });
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const rig = await startRig();
const sse = sseClient();
const direct = queryClient(rig.directOptions());
const rows = new Map<string, number[]>();
let before: Awaited<ReturnType<typeof rig.extraServer>> | undefined;
const add = (k: string, v: number) => rows.set(k, [...(rows.get(k) ?? []), v]);
try {
  const url = rig.server.url;
  const warm = await sse.ask<SseTiming>(JSON.stringify({ url, prompt: longPrompt(N, "w0") }));
  const contextId = warm.contextId;
  await sse.ask<SseTiming>(JSON.stringify({ url, prompt: longPrompt(N, "w1"), contextId }));
  await direct.ask<QueryTiming>(longPrompt(N, "w0"));
  await direct.ask<QueryTiming>(longPrompt(N, "w1"));
  // PROBE_BEFORE=<dir holding dist/cli.js>: a second server from that build, its rounds
  // interleaved with this build's (CPU per delta before and after a change, same moment).
  const beforeDir = process.env.PROBE_BEFORE;
  before =
    beforeDir === undefined
      ? undefined
      : await rig.extraServer(
          { sessions: { maxLive: 64, idleTimeoutMs: 20_000, minIdleBeforeEvictMs: 0 } },
          undefined,
          join(beforeDir, "dist", "cli.js"),
        );
  let beforeContext = "";
  if (before !== undefined) {
    const b = before.server.url;
    const w = await sse.ask<SseTiming>(JSON.stringify({ url: b, prompt: longPrompt(N, "w0") }));
    beforeContext = w.contextId;
    await sse.ask<SseTiming>(
      JSON.stringify({ url: b, prompt: longPrompt(N, "w1"), contextId: beforeContext }),
    );
  }
  const serverClaude = runtimes(await rig.serverClaudePids());
  const directClaude = runtimes(await rig.directClaudePids());
  if (process.env.PROBE_CMDLINES === "1") {
    for (const [side, pids] of [
      ["server's", serverClaude],
      ["direct", directClaude],
    ] as const)
      for (const pid of pids) {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
        const env = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").sort().join("\n  ");
        console.log(`${side} claude ${pid}: ${cmd}\n  ${env}`);
      }
  }
  roundsFrom = process.hrtime.bigint() / 1000n;
  // PROBE_PERF=<file>: the rounds under `perf record` (CPU time, not V8's wall-clock samples);
  // start the server with BENCH_SERVER_NODE_ARGS=--perf-basic-prof to name its JS frames.
  const perfOut = process.env.PROBE_PERF;
  const perf =
    perfOut === undefined
      ? undefined
      : spawn("perf", ["record", "-F", "4000", "-g", "-p", String(rig.server.pid), "-o", perfOut], {
          stdio: "ignore",
        });
  if (perf !== undefined) await delay(1_000);
  /** µs per delta of each process group over `run`. */
  const measured = async <T>(side: string, run: () => Promise<T>): Promise<T> => {
    const groups: Record<string, number[]> = {
      server: [rig.server.pid],
      "server's claude": serverClaude,
      "sse client": [sse.pid],
      "query client": [direct.pid],
      "direct claude": directClaude,
      model: [rig.model.pid],
    };
    const before = Object.fromEntries(
      await Promise.all(Object.entries(groups).map(async ([k, p]) => [k, await sched(p)] as const)),
    );
    const out = await run();
    for (const [k, p] of Object.entries(groups)) {
      const now = await sched(p);
      const was = before[k] ?? { cpu: 0, wait: 0, vcs: 0 };
      add(`${side}: ${k} CPU µs/delta`, ((now.cpu - was.cpu) * 1000) / N);
      if (k.includes("claude") || k === "server") {
        add(`${side}: ${k} run-queue wait ms`, now.wait - was.wait);
        add(`${side}: ${k} voluntary switches`, now.vcs - was.vcs);
      }
    }
    return out;
  };
  for (let round = 0; round < K; round++) {
    const tag = `r${round}`;
    const viaServer = async () => {
      const t = await measured("server", () =>
        sse.ask<SseTiming>(JSON.stringify({ url, prompt: longPrompt(N, tag), contextId })),
      );
      if (t.error !== undefined || t.state !== "TASK_STATE_COMPLETED")
        console.log(`round ${round}: ${t.error ?? t.state}`);
      add("server: wall to end ms", t.endMs);
      add("server: first chunk ms", t.firstChunkMs);
      add("server: SSE events", t.events);
    };
    const viaQuery = async () => {
      const t = await measured("query", () => direct.ask<QueryTiming>(longPrompt(N, tag)));
      add("query: wall to result ms", t.finalMs);
      add("query: first chunk ms", t.firstChunkMs);
    };
    const viaBefore = async () => {
      if (before === undefined) return;
      const b = before;
      const pid = b.server.pid;
      const was = await sched([pid]);
      const t = await sse.ask<SseTiming>(
        JSON.stringify({ url: b.server.url, prompt: longPrompt(N, tag), contextId: beforeContext }),
      );
      add("before: server CPU µs/delta", (((await sched([pid])).cpu - was.cpu) * 1000) / N);
      add("before: wall to end ms", t.endMs);
      if (t.error !== undefined || t.state !== "TASK_STATE_COMPLETED")
        console.log(`before round ${round}: ${t.error ?? t.state}`);
    };
    const order = [viaServer, viaQuery, viaBefore];
    for (let i = 0; i < order.length; i++) await order[(round + i) % order.length]!();
  }
  if (perf !== undefined) {
    perf.kill("SIGINT");
    await new Promise((r) => perf.once("exit", r));
  }
  for (const [k, xs] of [...rows].sort(([a], [b]) => a.localeCompare(b)))
    console.log(
      `${k.padEnd(40)} median ${med(xs).toFixed(1).padStart(7)}   ${xs.map((x) => x.toFixed(1)).join(" ")}`,
    );
  // PROBE_KEEP_DB=<dir>: a copy of the server's database, to see what the rounds wrote.
  const keep = process.env.PROBE_KEEP_DB;
  if (keep !== undefined) cpSync(join(rig.serverSandbox.cwd, ".claude"), keep, { recursive: true });
} finally {
  await Promise.all([sse.close(), direct.close()]);
  await before?.close();
  await rig.close();
}
const dir = process.env.BENCH_PROFILE;
if (dir !== undefined) {
  const file = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (file !== undefined) {
    const { startTime } = JSON.parse(readFileSync(file, "utf8")) as { startTime: number };
    const from = (Number(roundsFrom) - startTime) / 1e6;
    console.log(`npx tsx bench/profile-summary.ts ${file} 40 ${from.toFixed(2)}`);
  }
}
