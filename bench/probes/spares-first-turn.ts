/**
 * A probe of the runtime alone (no server): what the first turn of a Claude Code process costs
 * that a warm turn does not, and what a resume costs. Interleaved rounds of:
 *   spare          spawned, idle 3 s, then its first message (what a spare gives today);
 *   spare+context  the same, `getContextUsage({detail:"summary"})` called while idle;
 *   warm           the next message on that process;
 *   fresh          spawned with the message waiting (no spare);
 *   resume         spawned with `resume` and the message waiting (a resumed conversation);
 *   resume, ahead  spawned with `resume`, idle 3 s, then the message;
 *   prewarm        `prewarm()` (parked in a folder of its own), idle 3 s, then `claim()` with the
 *                  workspace as `cwd` and the message (the SDK's other kind of spare).
 * `PROBE_ONLY=spare,prewarm` runs only those (spare includes warm).
 * For each: send → the model's request, → first text delta, → result, and the process's CPU
 * over that span, and what the turn added to the session's transcript.
 * `npx tsx bench/probes/spares-first-turn.ts [rounds]`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import type { Server } from "node:http";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as delay } from "node:timers/promises";
import {
  prewarm,
  query,
  type Options,
  type Query,
  type SDKMessage,
  type SpareProcess,
} from "@anthropic-ai/claude-agent-sdk";
import { FakeModel } from "../../src/demo/fake-model/index.js";
import { TEST_MODEL } from "../../test/support/bench.js";
import { InputQueue } from "../../test/support/input-queue.js";
import { createRuntimeSandbox } from "../../test/support/sandbox.js";
import { processesWithConfigDir } from "../../test/support/server-process.js";
import rules from "../model-rules.js";
import { TURN_PROMPT } from "../rig.js";

const rounds = Number(process.argv[2] ?? "5");
const only = (process.env.PROBE_ONLY ?? "spare,context,fresh,resume,prewarm").split(",");
const runs = (variant: string) => only.includes(variant);
const extraEnv = JSON.parse(process.env.PROBE_ENV ?? "{}") as Record<string, string>;
let lastRequest = 0;
let requests = 0;
const model = await FakeModel.start({ rules });
(model as unknown as { server: Server }).server.prependListener("request", () => {
  lastRequest = performance.now();
  requests++;
});
const sandbox = await createRuntimeSandbox({ modelUrl: model.url, extraEnv });
const options = (extra: Partial<Options> = {}): Options => ({
  cwd: sandbox.cwd,
  env: sandbox.env,
  model: TEST_MODEL,
  permissionMode: "acceptEdits",
  settingSources: [],
  includePartialMessages: true,
  ...extra,
});

const cpuMs = (pid: number): number => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return Number.NaN;
  }
};
let known = new Set<number>();
async function newPid(): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const pids = (await processesWithConfigDir(sandbox.configDir)).filter((p) => !known.has(p));
    if (pids.length > 0) {
      known = new Set([...known, ...pids]);
      return Math.min(...pids);
    }
    await delay(20);
  }
  return 0;
}

/** Bytes of the session's transcript (0 before it exists). */
function transcriptBytes(sessionId: string): number {
  const projects = join(sandbox.configDir, "projects");
  try {
    for (const dir of readdirSync(projects)) {
      try {
        return statSync(join(projects, dir, `${sessionId}.jsonl`)).size;
      } catch {
        // not in this project folder
      }
    }
  } catch {
    // no transcript yet
  }
  return 0;
}

interface Sample {
  transcript: number;
  request: number;
  first: number;
  final: number;
  cpu: number;
  requests: number;
}
const samples = new Map<string, Sample[]>();
const add = (k: string, s: Sample) => samples.set(k, [...(samples.get(k) ?? []), s]);

class Proc {
  readonly input = new InputQueue();
  readonly q: Query;
  readonly iter: AsyncIterator<SDKMessage>;
  pid = 0;
  sessionId: string;
  constructor(o: Options, claimed?: (input: InputQueue) => Query) {
    this.sessionId = o.resume ?? "";
    this.q = claimed?.(this.input) ?? query({ prompt: this.input, options: o });
    this.iter = this.q[Symbol.asyncIterator]();
  }
  async turn(start = performance.now()): Promise<Sample> {
    const before = lastRequest;
    const r0 = requests;
    const cpu0 = this.pid ? cpuMs(this.pid) : 0;
    const bytes0 = this.sessionId === "" ? 0 : transcriptBytes(this.sessionId);
    this.input.push(TURN_PROMPT);
    let first = Number.NaN;
    for (;;) {
      const step = await this.iter.next();
      if (step.done === true) throw new Error("ended");
      const m = step.value;
      if (m.type === "system" && m.subtype === "init") this.sessionId = m.session_id;
      if (m.type === "stream_event" && Number.isNaN(first)) {
        const e = m.event;
        if (e.type === "content_block_delta") first = performance.now() - start;
      }
      if (m.type === "result") {
        if (this.pid === 0) this.pid = await newPid();
        return {
          transcript: transcriptBytes(this.sessionId) - bytes0,
          request: lastRequest > before ? lastRequest - start : Number.NaN,
          first,
          final: performance.now() - start,
          cpu: cpuMs(this.pid) - cpu0,
          requests: requests - r0,
        };
      }
    }
  }
  async ready(extra?: (q: Query) => Promise<unknown>): Promise<void> {
    await this.q.initializationResult();
    this.pid = await newPid();
    await extra?.(this.q);
    await delay(3_000);
  }
  close() {
    this.input.close();
    this.q.close();
  }
}

for (let r = 0; r < rounds; r++) {
  let id = "";
  if (runs("spare")) {
    const spare = new Proc(options());
    await spare.ready();
    add("spare: first message", await spare.turn());
    await delay(500);
    add("warm: next message", await spare.turn());
    id = spare.sessionId;
    spare.close();
    await delay(1_000);
  }

  if (runs("prewarm")) {
    // Host-level options at prewarm; the folder, model and mode at the claim.
    const { cwd, model: claimModel, permissionMode, ...host } = options();
    const parked: SpareProcess = await prewarm({ options: host });
    await delay(500);
    const pid = await newPid();
    await delay(3_000);
    const claimedProc = new Proc(options(), (input) =>
      parked.claim({
        prompt: input,
        options: { cwd: cwd ?? sandbox.cwd, model: claimModel ?? TEST_MODEL, permissionMode },
      }),
    );
    claimedProc.pid = pid;
    add("prewarm: claim + first message", await claimedProc.turn());
    await delay(500);
    add("prewarm: next message (warm)", await claimedProc.turn());
    claimedProc.close();
    await delay(1_000);
  }

  if (runs("context")) {
    const ctx = new Proc(options());
    let ctxMs = 0;
    await ctx.ready(async (q) => {
      const t = performance.now();
      await q.getContextUsage({ detail: "summary" });
      ctxMs = performance.now() - t;
    });
    add("spare+context: first message", await ctx.turn());
    add("getContextUsage(summary) while idle", {
      transcript: 0,
      request: 0,
      first: 0,
      final: ctxMs,
      cpu: 0,
      requests: 0,
    });
    ctx.close();
    await delay(1_000);
  }

  if (runs("fresh")) {
    const t = performance.now();
    const fresh = new Proc(options());
    add("fresh: spawn + first message", await fresh.turn(t));
    fresh.close();
    await delay(1_000);
  }

  if (runs("resume") && id !== "") {
    const t2 = performance.now();
    const resumed = new Proc(options({ resume: id }));
    add("resume: spawn + first message", await resumed.turn(t2));
    resumed.close();
    await delay(1_000);

    const ahead = new Proc(options({ resume: id }));
    await ahead.ready();
    add("resume, spawned ahead: first message", await ahead.turn());
    ahead.close();
    await delay(1_000);
  }
  process.stderr.write(`round ${r + 1}/${rounds}\n`);
}
const med = (xs: number[]) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor((s.length - 1) / 2)]!;
};
console.log(
  "| variant | n | send → model request | → first delta | → result | process CPU | model requests | transcript added |",
);
console.log("|---|--:|--:|--:|--:|--:|--:|--:|");
for (const [k, xs] of samples) {
  const f = (sel: (s: Sample) => number) => Math.round(med(xs.map(sel)));
  console.log(
    `| ${k} | ${xs.length} | ${f((s) => s.request)} ms | ${f((s) => s.first)} ms | ${f((s) => s.final)} ms | ${f((s) => s.cpu)} ms | ${f((s) => s.requests)} | ${f((s) => s.transcript / 1024)} KB |`,
  );
}
await model.close();
await sandbox.cleanup();
