/**
 * A probe, not a scenario: where a new conversation's time goes when it takes a spare, against a
 * warm follow-up on the same server, on one clock. One server with `sessions.spares` (argv[2],
 * default 1; rounds argv[3], default 8), or two interleaved with `PROBE_BEFORE=<a built
 * checkout>` (that build's server beside this one's: before and after in the same run;
 * `PROBE_AFTER=<a built checkout>` runs another build than this one as "after"). The
 * scripted model runs in this process (each request's arrival and the end of its answer timed);
 * each server is started with `bench/probes/path-trace.js` preloaded, which timestamps every HTTP
 * request, each write of its response and its end, with the server's own CPU (all its threads),
 * plus whatever `globalThis.__pt(label)` marks the server's code carries (none in a normal build:
 * add some to trace deeper). Each round, on each server in turn (the order alternates): a one-shot
 * streaming turn (a new context) and a warm follow-up on a live context (which goes first
 * alternates too), then nothing until the server's slot of `PROBE_GAP_MS` (default 3 s) ends, so
 * that a spare has time to start again. The CPU of the Claude Code process serving each turn is
 * read from `/proc` before and after it.
 *
 * Prints each turn's marks (ms from the client's send; server CPU ms since the turn's first server
 * mark) with `PROBE_VERBOSE=1`, the median of each step of the path for one-shots and warm turns,
 * and a summary per server. `npx tsx bench/probes/spares-path.ts 1 8` (needs `npm run build`).
 * `PROBE_NODE_ARGS="--cpu-prof --cpu-prof-dir=…"` and `PROBE_TURNS_OUT=<file>` (the turns'
 * windows) line a CPU profile up with the turns.
 */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import { FakeModel } from "../../src/demo/fake-model/index.js";
import { freePort } from "../../test/support/a2a/harness.js";
import { createRuntimeSandbox, type RuntimeSandbox } from "../../test/support/sandbox.js";
import {
  killSandboxProcesses,
  spawnServer,
  writeTestConfig,
  type ServerProcess,
} from "../../test/support/server-process.js";
import { streamingTurn } from "../a2a.js";
import rules from "../model-rules.js";
import { TURN_PROMPT } from "../rig.js";
import { median, p95 } from "../stats.js";

const spares = Number(process.argv[2] ?? "1");
const rounds = Number(process.argv[3] ?? "8");
const isolation = process.env.PROBE_ISOLATION === "worktree" ? "worktree" : "shared";
/** Each server's slot: a new conversation on each every `GAP_MS` × servers. */
const GAP_MS = Number(process.env.PROBE_GAP_MS ?? "3000");
const here = fileURLToPath(new URL(".", import.meta.url));
const wall = () => performance.timeOrigin + performance.now();

/** One mark: wall time (ms), the server's CPU (µs) if it is the server's, and what. */
interface Mark {
  readonly at: number;
  readonly cpu?: number;
  readonly what: string;
}
const probeMarks: Mark[] = [];
const mark = (what: string) => probeMarks.push({ at: wall(), what });

interface Turn {
  readonly kind: "one-shot" | "warm";
  readonly from: number;
  readonly to: number;
  readonly firstChunkMs: number;
  readonly finalMs: number;
  /** CPU the Claude Code processes spent during it (ms, 10 ms ticks), the busiest one. */
  readonly runtimeCpu: number;
}

interface Side {
  readonly name: string;
  readonly sandbox: RuntimeSandbox;
  readonly server: ServerProcess;
  readonly client: Client;
  readonly traceFile: string;
  readonly turns: Turn[];
  warmCtx: string;
}

const model = await FakeModel.start({ rules });
(model as unknown as { server: Server }).server.prependListener(
  "request",
  (req: IncomingMessage, res: ServerResponse) => {
    mark(`model: request ${req.method} ${req.url}`);
    res.on("finish", () => mark("model: answer sent"));
  },
);

async function startSide(name: string, cli?: string): Promise<Side> {
  const sandbox = await createRuntimeSandbox({ modelUrl: model.url });
  await writeTestConfig(sandbox.cwd, {
    sessions: { spares, maxLive: 32, minIdleBeforeEvictMs: 0 },
    claude: { isolation },
  });
  if (isolation === "worktree") {
    const { generateRepository } = await import("../scenarios/workspace.js");
    await generateRepository(sandbox.cwd, Number(process.env.PROBE_FILES ?? "1000"));
  }
  const traceFile = join(process.env.TMPDIR ?? "/tmp", `spares-path-${process.pid}-${name}.tsv`);
  const server = await spawnServer({
    built: true,
    ...(cli !== undefined && { cli }),
    cwd: sandbox.cwd,
    port: await freePort(),
    env: { ...sandbox.env, LOG_LEVEL: process.env.PROBE_LOG_LEVEL ?? "info", PT_OUT: traceFile },
    nodeArgs: [
      "--import",
      join(here, "path-trace.js"),
      ...(process.env.PROBE_NODE_ARGS ?? "").split(" ").filter(Boolean),
    ],
  });
  const client = await new ClientFactory().createFromUrl(server.url);
  return { name, sandbox, server, client, traceFile, turns: [], warmCtx: "" };
}

/** CPU (ms) of each Claude Code child of the server. */
function childrenCpu(serverPid: number): Map<number, number> {
  const out = new Map<number, number>();
  try {
    for (const t of readdirSync(`/proc/${serverPid}/task`)) {
      const kids = readFileSync(`/proc/${serverPid}/task/${t}/children`, "utf8").trim();
      for (const pid of kids.split(/\s+/).filter(Boolean).map(Number)) {
        try {
          const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
          out.set(pid, (Number(f[11]) + Number(f[12])) * 10);
        } catch {
          // gone
        }
      }
    }
  } catch {
    // gone
  }
  return out;
}

async function turn(s: Side, kind: Turn["kind"], contextId = ""): Promise<string> {
  const before = childrenCpu(s.server.pid);
  const from = wall();
  mark(`client: send ${kind}`);
  const t = await streamingTurn(s.client, TURN_PROMPT, contextId);
  const to = wall();
  mark(`client: final ${kind}`);
  let runtimeCpu = 0;
  for (const [pid, ms] of childrenCpu(s.server.pid)) {
    runtimeCpu = Math.max(runtimeCpu, ms - (before.get(pid) ?? 0));
  }
  if (t.error) console.log(`${s.name}: ${kind} turn ended in error`);
  s.turns.push({ kind, from, to, firstChunkMs: t.firstChunkMs, finalMs: t.finalMs, runtimeCpu });
  return t.contextId;
}

const before = process.env.PROBE_BEFORE;
const after = process.env.PROBE_AFTER;
const sides = [await startSide("after", after ? join(after, "dist", "cli.js") : undefined)];
if (before !== undefined && before !== "") {
  sides.push(await startSide("before", join(before, "dist", "cli.js")));
}
await delay(4_000);
for (const s of sides) {
  s.warmCtx = await turn(s, "warm");
  s.turns.pop();
}
await delay(3_000);
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? sides : [...sides].reverse();
  for (const s of order) {
    const start = performance.now();
    if (r % 4 < 2) {
      await turn(s, "one-shot");
      await turn(s, "warm", s.warmCtx);
    } else {
      await turn(s, "warm", s.warmCtx);
      await delay(300);
      await turn(s, "one-shot");
    }
    await delay(Math.max(0, GAP_MS - (performance.now() - start)));
  }
}
for (const s of sides) {
  s.server.kill("SIGTERM");
  await s.server.exited;
  await killSandboxProcesses(s.sandbox.configDir);
  await s.sandbox.cleanup();
}
await model.close();

const verbose = process.env.PROBE_VERBOSE === "1";
const fmt = (xs: number[]) => (xs.length === 0 ? "" : median(xs).toFixed(1));
const summary: string[] = [];
for (const s of sides) {
  if (process.env.PROBE_TURNS_OUT !== undefined) {
    // The turns' windows and the server's trace (its first line lines up the monotonic clock).
    const out = `${process.env.PROBE_TURNS_OUT}.${s.name}.json`;
    writeFileSync(out, JSON.stringify({ turns: s.turns, traceFile: s.traceFile }));
  }
  const serverMarks: Mark[] = readFileSync(s.traceFile, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => {
      const [at, cpu, , what] = line.split("\t");
      return { at: Number(at), cpu: Number(cpu), what: `server: ${what}` };
    });
  const all = [...probeMarks, ...serverMarks].sort((a, b) => a.at - b.at);
  const steps = new Map<string, { oneShot: number[]; warm: number[] }>();
  const cpuSteps = new Map<string, { oneShot: number[]; warm: number[] }>();
  const serverCpu = { oneShot: [] as number[], warm: [] as number[] };
  for (const t of s.turns) {
    const side = t.kind === "one-shot" ? "oneShot" : "warm";
    const marks = all.filter((m) => m.at >= t.from - 0.5 && m.at <= t.to + 0.5);
    const cpus = marks.filter((m) => m.cpu !== undefined).map((m) => m.cpu as number);
    const firstCpu = cpus[0] ?? 0;
    serverCpu[side].push(((cpus.at(-1) ?? 0) - firstCpu) / 1000);
    if (verbose) {
      console.log(
        `\n${s.name} ${t.kind}: first chunk ${t.firstChunkMs.toFixed(0)} ms, final ${t.finalMs.toFixed(0)} ms, runtime CPU ${t.runtimeCpu} ms`,
      );
    }
    const seen = new Set<string>();
    for (const m of marks) {
      const label = m.what.replace(/#\d+/g, "#").replace(/ \/[^ ]*/g, "");
      const ms = m.at - t.from;
      const cpu = m.cpu === undefined ? undefined : (m.cpu - firstCpu) / 1000;
      if (verbose) {
        const c = cpu === undefined ? " ".repeat(8) : `${cpu.toFixed(1).padStart(7)}c`;
        console.log(`${ms.toFixed(1).padStart(8)} ${c}  ${m.what}`);
      }
      if (seen.has(label)) continue;
      seen.add(label);
      const st = steps.get(label) ?? { oneShot: [], warm: [] };
      st[side].push(ms);
      steps.set(label, st);
      if (cpu !== undefined) {
        const c = cpuSteps.get(label) ?? { oneShot: [], warm: [] };
        c[side].push(cpu);
        cpuSteps.set(label, c);
      }
    }
  }
  console.log(
    `\n${s.name}: medians, ms from the client's send (server CPU ms since its first mark)`,
  );
  console.log(
    `${"step".padEnd(50)} ${"one-shot".padStart(9)} ${"warm".padStart(9)}   cpu 1s / warm`,
  );
  const at = (x: { oneShot: number[]; warm: number[] }) =>
    median(x.oneShot.length > 0 ? x.oneShot : x.warm);
  for (const [label, st] of [...steps].sort((a, b) => at(a[1]) - at(b[1]))) {
    const c = cpuSteps.get(label);
    const cpu = c ? `${fmt(c.oneShot)} / ${fmt(c.warm)}` : "";
    console.log(
      `${label.slice(0, 50).padEnd(50)} ${fmt(st.oneShot).padStart(9)} ${fmt(st.warm).padStart(9)}   ${cpu}`,
    );
  }
  for (const kind of ["one-shot", "warm"] as const) {
    const ts = s.turns.filter((t) => t.kind === kind);
    const final = ts.map((t) => t.finalMs);
    summary.push(
      `${s.name.padEnd(7)} ${kind.padEnd(9)} n=${ts.length}  first chunk ${fmt(ts.map((t) => t.firstChunkMs)).padStart(7)}  final ${fmt(final).padStart(7)} (p95 ${p95(final).toFixed(0)})  runtime CPU ${fmt(ts.map((t) => t.runtimeCpu)).padStart(6)}  server CPU ${fmt(serverCpu[kind === "one-shot" ? "oneShot" : "warm"]).padStart(6)}`,
    );
  }
}
console.log(`\nsummary (medians, ms):\n${summary.join("\n")}`);
