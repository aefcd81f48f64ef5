/**
 * Resume (docs/reliability.md): how long a client that reconnects with `Last-Event-ID` waits for
 * its first replayed event, against a GetTask (how a client without replay catches up), on a
 * finished task; and the cost of numbering and keeping events on a warm turn: the server's CPU
 * per turn with `replay.enabled` on against off, two servers in the same run, blocks interleaved.
 */
import { performance } from "node:perf_hooks";
import { TaskState } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { blockingTurn, streamingTurn } from "../a2a.js";
import type { Plan } from "../plan.js";
import { cpuTimePreciseMs } from "../proc.js";
import { TURN_PROMPT, type ExtraServer, type Rig } from "../rig.js";
import type { Row } from "../stats.js";
import { sendRequest, userMessage } from "../../test/support/a2a/harness.js";

/** A2A turns per reading of a server's CPU. */
const CPU_BLOCK = 10;

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

export async function resume(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const on: ExtraServer = await rig.extraServer({});
  const off: ExtraServer = await rig.extraServer({ replay: { enabled: false } });
  const cpuOn: number[] = [];
  const cpuOff: number[] = [];
  const resumeFirst: number[] = [];
  const getTask: number[] = [];
  let errors = 0;
  try {
    const contexts = new Map<ExtraServer, string>();
    for (const s of [on, off])
      contexts.set(s, (await blockingTurn(s.client, TURN_PROMPT)).contextId);
    const blocks = Math.max(3, plan.warmRounds / 2);
    for (let block = -1; block < blocks; block++) {
      for (const s of block % 2 === 0 ? [on, off] : [off, on]) {
        const before = await cpuTimePreciseMs(s.server.pid);
        for (let i = 0; i < CPU_BLOCK; i++) {
          const turn = i % 2 === 0 ? blockingTurn : streamingTurn;
          if ((await turn(s.client, TURN_PROMPT, contexts.get(s))).error) errors++;
        }
        const perTurn = ((await cpuTimePreciseMs(s.server.pid)) - before) / CPU_BLOCK;
        if (block >= 0) (s === on ? cpuOn : cpuOff).push(perTurn);
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
  } finally {
    await on.close();
    await off.close();
  }
  if (errors > 0) log(`resume: ${errors} turn(s) ended in error`);
  const scenario = "resume";
  return [
    {
      scenario,
      group: "server CPU per warm turn",
      variant: "replay.enabled false",
      unit: "ms",
      samples: cpuOff,
      baseline: true,
    },
    {
      scenario,
      group: "server CPU per warm turn",
      variant: "replay.enabled true (numbered, kept)",
      unit: "ms",
      samples: cpuOn,
      target: "≤ 1.05×",
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
