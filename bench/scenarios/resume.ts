/**
 * Resume (docs/reliability.md): how long a client that reconnects with `Last-Event-ID` waits for
 * its first replayed event, against a fresh SubscribeToTask (no cursor: the task's snapshot first)
 * on the same live task, and against a GetTask on a finished task (where a subscribe without a
 * cursor is refused); and the cost of numbering and keeping events on a warm turn: the server's
 * CPU per turn with `replay.enabled` on against off, two servers in the same run, blocks
 * interleaved (`BENCH_RESUME_BLOCKS` of ten turns each; with `BENCH_BEFORE`, a third server: that
 * build with replay on, for a before/after in the same run).
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { blockingTurn, streamingTurn } from "../a2a.js";
import type { Plan } from "../plan.js";
import { cpuTimePreciseMs } from "../proc.js";
import { pacedPrompt } from "../model-rules.js";
import { TURN_PROMPT, type ExtraServer, type Rig } from "../rig.js";
import { median, type Row } from "../stats.js";
import { startTogether } from "../together.js";
import { sendRequest, userMessage } from "../../test/support/a2a/harness.js";

/** A2A turns per reading of a server's CPU. */
const CPU_BLOCK = 10;

/** The live task's answer: one delta every 10 ms for up to 60 s (it is canceled once measured). */
const LIVE_DELTAS = 6_000;
const LIVE_EVERY_MS = 10;
/** How far behind the live stream a resuming client's cursor is (events it missed). */
const MISSED = 2;

/** The number an event carries (0: none). */
const numberOf = (e: StreamResponse): number => {
  const n: unknown = e.payload?.value?.metadata?.eventNumber;
  return typeof n === "number" ? n : 0;
};

/**
 * A task kept live by a paced answer, read in the background: its id once it has streamed a few
 * events, and the newest number its stream carried.
 */
async function liveTask(client: Client) {
  let last = 0;
  let id = "";
  let ready!: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  const done = (async () => {
    const prompt = pacedPrompt(LIVE_DELTAS, LIVE_EVERY_MS, "resume");
    for await (const e of client.sendMessageStream(sendRequest(userMessage(prompt)))) {
      if (e.payload?.$case === "task") id = e.payload.value.id;
      last = Math.max(last, numberOf(e));
      if (last > MISSED + 2) ready();
    }
  })().finally(ready);
  await started;
  return { id, last: () => last, done };
}

/** Milliseconds from opening a subscription to its first item (then it is closed). */
async function toFirstItem(stream: AsyncGenerator<StreamResponse>): Promise<number> {
  const start = performance.now();
  for await (const _ of stream) return performance.now() - start;
  throw new Error("the subscription ended without an item");
}

/** A finished streamed task's id, in `contextId`. */
async function finishedTask(client: Client, contextId: string): Promise<string> {
  for await (const e of client.sendMessageStream(
    sendRequest(userMessage(TURN_PROMPT, { contextId })),
  )) {
    if (e.payload?.$case === "task") return drainAndReturn(client, e.payload.value.id);
  }
  throw new Error("no task");
}

async function drainAndReturn(client: Client, id: string): Promise<string> {
  // The stream above was left at its first event; wait for the task to end.
  for (let i = 0; i < 200; i++) {
    const task = await client.getTask({ tenant: "", id, historyLength: 0 });
    if (task.status?.state === TaskState.TASK_STATE_COMPLETED) return id;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return id;
}

/**
 * The CPU per turn to two decimals (the table rounds), each against the baseline: its median and
 * the median of its differences with the baseline's block of the same round (blocks are paired
 * in time, so the machine's load hits both alike).
 */
function cpuSummary(
  baseline: readonly number[],
  others: readonly (readonly [string, readonly number[]])[],
): string {
  const parts = others.map(([name, samples]) => {
    const paired = median(samples.map((x, i) => x - (baseline[i] ?? Number.NaN)));
    return `${name} ${median(samples).toFixed(2)} ms (paired +${(paired * 1000).toFixed(0)} µs)`;
  });
  return `server CPU per warm turn: replay off ${median(baseline).toFixed(2)} ms, ${parts.join(", ")}`;
}

/** `BENCH_BEFORE`: an earlier build's CLI, run with replay on beside this build's (before/after). */
function earlierCli(): string | undefined {
  const dir = process.env.BENCH_BEFORE ?? "";
  return dir === "" ? undefined : join(dir, "dist", "cli.js");
}

export async function resume(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const [on, off] = await startTogether([
    rig.extraServer({}),
    rig.extraServer({ replay: { enabled: false } }),
  ]);
  const cli = earlierCli();
  const earlier = cli === undefined ? undefined : await rig.extraServer({}, undefined, cli);
  const cpu = new Map<ExtraServer, number[]>([
    [off, []],
    [on, []],
    ...(earlier === undefined ? [] : [[earlier, []] as [ExtraServer, number[]]]),
  ]);
  const servers = [...cpu.keys()];
  const resumeFirst: number[] = [];
  const getTask: number[] = [];
  const freshLive: number[] = [];
  const resumeLive: number[] = [];
  let errors = 0;
  try {
    const contexts = new Map<ExtraServer, string>();
    for (const s of servers) contexts.set(s, (await blockingTurn(s.client, TURN_PROMPT)).contextId);
    const blocks = Number(process.env.BENCH_RESUME_BLOCKS ?? Math.max(3, plan.warmRounds / 2));
    for (let block = -1; block < blocks; block++) {
      // Each server first in turn, and the order reversed every other block.
      const order = servers.map((_, i) => servers[(i + block + 1) % servers.length] as ExtraServer);
      for (const s of block % 2 === 0 ? order : order.reverse()) {
        const before = await cpuTimePreciseMs(s.server.pid);
        for (let i = 0; i < CPU_BLOCK; i++) {
          const turn = i % 2 === 0 ? blockingTurn : streamingTurn;
          if ((await turn(s.client, TURN_PROMPT, contexts.get(s))).error) errors++;
        }
        const perTurn = ((await cpuTimePreciseMs(s.server.pid)) - before) / CPU_BLOCK;
        if (block >= 0) cpu.get(s)?.push(perTurn);
      }
    }
    const id = await finishedTask(on.client, contexts.get(on) ?? "");
    for (let round = -plan.warmUp; round < plan.warmRounds; round++) {
      let start = performance.now();
      for await (const _ of on.client.resubscribeTask(
        { tenant: "", id },
        { serviceParameters: { "last-event-id": "1" } },
      )) {
        if (round >= 0) resumeFirst.push(performance.now() - start);
        break;
      }
      start = performance.now();
      await on.client.getTask({ tenant: "", id, historyLength: 0 });
      if (round >= 0) getTask.push(performance.now() - start);
    }
    // A live task: a client reconnecting with the last number it had (a few events behind)
    // against a fresh subscribe, alternating which goes first.
    const live = await liveTask(on.client);
    try {
      for (let round = -plan.warmUp; round < plan.warmRounds; round++) {
        const fresh = () => toFirstItem(on.client.resubscribeTask({ tenant: "", id: live.id }));
        const resumed = () =>
          toFirstItem(
            on.client.resubscribeTask(
              { tenant: "", id: live.id },
              { serviceParameters: { "last-event-id": String(live.last() - MISSED) } },
            ),
          );
        const [a, b] = round % 2 === 0 ? [fresh, resumed] : [resumed, fresh];
        const first = await a();
        const second = await b();
        if (round < 0) continue;
        freshLive.push(round % 2 === 0 ? first : second);
        resumeLive.push(round % 2 === 0 ? second : first);
      }
    } finally {
      await on.client.cancelTask({ tenant: "", id: live.id, metadata: undefined }).catch(() => {
        errors++;
      });
      await live.done.catch(() => undefined);
    }
  } finally {
    for (const s of servers) await s.close();
  }
  if (errors > 0) log(`resume: ${errors} turn(s) ended in error`);
  log(
    `resume: ${cpuSummary(cpu.get(off) ?? [], [
      ["replay on", cpu.get(on) ?? []],
      ...(earlier === undefined
        ? []
        : [["replay on, BENCH_BEFORE", cpu.get(earlier) ?? []] as const]),
    ])}`,
  );
  const scenario = "resume";
  return [
    {
      scenario,
      group: "server CPU per warm turn",
      variant: "replay.enabled false",
      unit: "ms",
      samples: cpu.get(off) ?? [],
      baseline: true,
    },
    {
      scenario,
      group: "server CPU per warm turn",
      variant: "replay.enabled true (numbered, kept)",
      unit: "ms",
      samples: cpu.get(on) ?? [],
      target: "≤ 1.05×",
    },
    ...(earlier === undefined
      ? []
      : [
          {
            scenario,
            group: "server CPU per warm turn",
            variant: "replay.enabled true, the BENCH_BEFORE build",
            unit: "ms" as const,
            samples: cpu.get(earlier) ?? [],
          },
        ]),
    {
      scenario,
      group: "catch up on a live task",
      variant: "fresh SubscribeToTask (no cursor) → its snapshot",
      unit: "ms",
      samples: freshLive,
      baseline: true,
    },
    {
      scenario,
      group: "catch up on a live task",
      variant: `SubscribeToTask, Last-Event-ID (${MISSED} behind) → first replayed event`,
      unit: "ms",
      samples: resumeLive,
    },
    {
      scenario,
      group: "catch up on a finished task",
      variant: "GetTask (no replay)",
      unit: "ms",
      samples: getTask,
      baseline: true,
    },
    {
      scenario,
      group: "catch up on a finished task",
      variant: "SubscribeToTask, Last-Event-ID: 1 → first replayed event",
      unit: "ms",
      samples: resumeFirst,
    },
  ];
}
