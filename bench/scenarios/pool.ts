/**
 * Pool: what a new conversation pays when every process slot (`sessions.maxLive`) holds an idle
 * session, against a cold turn with free slots, and 8 conversations sharing 4 slots (quick: 4 on
 * 2). Two servers of its own: "free" (room for every context; an idle process closes after 1 s)
 * and "full" (`sessions.maxLive: plan.poolSlots`, the default eviction grace). Every turn is a
 * blocking SendMessage.
 *
 * - one-shot: a message in a new context, interleaved: on "free" once its processes have gone
 *   (a cold start with free slots), and on "full" while its slots hold idle sessions (one of
 *   them has to be closed for the new conversation).
 * - round-robin: twice as many conversations as slots on "full", taking a turn each in order,
 *   `poolRounds` times: each turn resumes a conversation whose process was closed for another.
 * - at once: as many loops on "full", each `poolTurnsAtOnce` turns in its own new context, all at
 *   the same time; the slowest turn tells whether a conversation starved.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { Client } from "@a2a-js/sdk/client";
import { performance } from "node:perf_hooks";
import { TaskState } from "@a2a-js/sdk";
import {
  messageText,
  sendRequest,
  stateName,
  userMessage,
} from "../../test/support/a2a/harness.js";
import type { Plan } from "../plan.js";
import { TURN_PROMPT, type ExtraServer, type Rig } from "../rig.js";
import type { Row } from "../stats.js";
import { startTogether } from "../together.js";

/** Polls `done` until it holds, for at most `ms`; false if it never did. */
async function settled(done: () => Promise<boolean>, ms = 15_000): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await done()) return true;
    if (Date.now() >= end) return false;
    await delay(50);
  }
}

interface Turn {
  readonly ms: number;
  readonly error: boolean;
  readonly contextId: string;
}

/** A blocking turn; a failed one says why in the log (its state and last status text). */
async function turn(client: Client, log: (s: string) => void, contextId = ""): Promise<Turn> {
  const start = performance.now();
  try {
    const result = await client.sendMessage(sendRequest(userMessage(TURN_PROMPT, { contextId })));
    const ms = performance.now() - start;
    const task = "status" in result ? result : undefined;
    const error = task?.status?.state !== TaskState.TASK_STATE_COMPLETED;
    if (error) {
      const why = messageText(task?.status?.message);
      log(`pool: a turn ended ${stateName(task?.status?.state)}: ${why}`);
    }
    return { ms, error, contextId: task?.contextId ?? contextId };
  } catch (err) {
    log(`pool: a turn failed: ${String(err)}`);
    return { ms: performance.now() - start, error: true, contextId };
  }
}

export async function pool(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const began = Date.now();
  const [free, full] = await startTogether([
    rig.extraServer({ sessions: { maxLive: 64, idleTimeoutMs: 1_000 } }),
    rig.extraServer({ sessions: { maxLive: plan.poolSlots } }),
  ]);
  try {
    log(`pool: two servers started in ${((Date.now() - began) / 1000).toFixed(1)} s`);
    return await measure(free, full, plan, log);
  } finally {
    const closing = Date.now();
    await full.close();
    await free.close();
    log(`pool: servers stopped in ${((Date.now() - closing) / 1000).toFixed(1)} s`);
  }
}

async function measure(
  free: ExtraServer,
  full: ExtraServer,
  plan: Plan,
  log: (s: string) => void,
): Promise<Row[]> {
  const scenario = "pool";
  const slots = plan.poolSlots;
  const conversations = 2 * slots;
  const turns: Turn[] = [];
  const keep = (t: Turn) => (turns.push(t), t);

  const began = Date.now();
  // Warm-up, unmeasured: each server's first turn, and conversations filling every slot of "full".
  keep(await turn(free.client, log));
  for (let i = 0; i < slots; i++) keep(await turn(full.client, log));

  const freeSlots: number[] = [];
  const fullPool: number[] = [];
  for (let round = 0; round < plan.poolOneShots; round++) {
    const freed = await settled(async () => (await free.claudePids()).length === 0);
    const fullSettled = await settled(async () => (await full.claudePids()).length <= slots);
    if (!freed || !fullSettled)
      log(`pool: processes did not settle (free: ${freed}, full: ${fullSettled})`);
    const onFree = async () => freeSlots.push(keep(await turn(free.client, log)).ms);
    const onFull = async () => fullPool.push(keep(await turn(full.client, log)).ms);
    // Alternate which goes first, so neither always follows the other's leftovers.
    for (const run of round % 2 === 0 ? [onFree, onFull] : [onFull, onFree]) await run();
  }
  const since = (t: number) => `${((Date.now() - t) / 1000).toFixed(1)} s`;
  log(`pool: ${plan.poolOneShots} one-shot conversations on each server in ${since(began)}`);

  const rrBegan = Date.now();
  const contexts: string[] = [];
  for (let i = 0; i < conversations; i++)
    contexts.push(keep(await turn(full.client, log)).contextId);
  const roundRobin: number[] = [];
  for (let round = 0; round < plan.poolRounds; round++) {
    for (const contextId of contexts)
      roundRobin.push(keep(await turn(full.client, log, contextId)).ms);
  }
  log(
    `pool: ${plan.poolRounds} round-robin rounds of ${conversations} conversations in ${since(rrBegan)}`,
  );

  const atOnceBegan = Date.now();
  const loops = await Promise.all(
    Array.from({ length: conversations }, async () => {
      const times: number[] = [];
      let contextId = "";
      for (let i = 0; i < plan.poolTurnsAtOnce; i++) {
        const t = keep(await turn(full.client, log, contextId));
        contextId = t.contextId;
        times.push(t.ms);
      }
      return times;
    }),
  );
  const atOnce = loops.flat();
  log(`pool: ${conversations} loops at once in ${since(atOnceBegan)}`);

  const group = (name: string, variant: string, samples: number[], extra: Partial<Row> = {}) => ({
    scenario,
    group: name,
    variant,
    unit: "ms" as const,
    samples,
    compare: "p95" as const,
    ...extra,
  });
  const cold = "new context, free slots";
  return [
    group("one-shot turn (p95 ratio)", cold, freeSlots, { baseline: true }),
    group("one-shot turn (p95 ratio)", `new context, ${slots} of ${slots} slots idle`, fullPool, {
      target: "p95 ≤ 1.5×",
    }),
    group(`${conversations} on ${slots} slots (p95 ratio)`, cold, freeSlots, { baseline: true }),
    group(
      `${conversations} on ${slots} slots (p95 ratio)`,
      "round-robin, one at a time",
      roundRobin,
    ),
    group(
      `${conversations} on ${slots} slots (p95 ratio)`,
      `${conversations} loops at once`,
      atOnce,
    ),
    group("slowest turn", `${conversations} loops at once`, [Math.max(...atOnce)]),
    {
      scenario,
      group: "errors",
      variant: "every turn of the scenario",
      unit: "count",
      samples: [turns.filter((t) => t.error).length],
      target: "0",
    },
  ];
}
