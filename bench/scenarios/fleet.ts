/**
 * Fleet: how late a task's events reach a client subscribed through another instance of a fleet
 * on one PostgreSQL store (relayed through the events table, woken by NOTIFY), against a client
 * subscribed on the owner itself. Two servers of its own (A owns the task, B does not) on one
 * embedded PostgreSQL, `streaming.flushMs: 0` so that each of the model's one-character deltas is
 * one event. Per round: a streaming SendMessage on A, SubscribeToTask on A and on B; the measure
 * is each event's arrival on B's subscriber minus its arrival on A's: what being on another
 * instance adds. The sending stream is no reference: the SDK stores each event before it streams
 * it to the sender (seconds behind over 1,000 events), while subscribers read the bus. Both
 * subscribers' streams are suffixes of the task's (after their snapshot), so events are matched
 * from the end; the last `plan.fleetEvents` of each round count (1,000; quick 500).
 */
import { performance } from "node:perf_hooks";
import type { StreamResponse } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { sendRequest, userMessage } from "../../test/support/a2a/harness.js";
import { startTestPostgres } from "../../test/support/postgres.js";
import type { Plan } from "../plan.js";
import { pacedPrompt } from "../model-rules.js";
import { longPrompt, type ExtraServer, type Rig } from "../rig.js";
import type { Row } from "../stats.js";
import { startTogether } from "../together.js";

/** Deltas beyond the measured events, so that subscribers are attached for them all. */
const LEAD_DELTAS = 300;
const WARM_UP_DELTAS = 200;
/** The steady stream: one event every this many ms (200 a second). */
const PACE_MS = 5;

/** Reads a stream, noting when each event arrived (ms, this process's clock). */
async function arrivals(stream: AsyncIterable<StreamResponse>): Promise<number[]> {
  const at: number[] = [];
  for await (const _ of stream) {
    void _;
    at.push(performance.now());
  }
  return at;
}

/** One round: a task on A watched by its sender, a subscriber on A and one on B. */
async function round(a: Client, b: Client, prompt: string, events: number) {
  const sender = a.sendMessageStream(sendRequest(userMessage(prompt)));
  const iterator = sender[Symbol.asyncIterator]();
  const head = await iterator.next();
  const first = head.value as StreamResponse | undefined;
  if (first?.payload?.$case !== "task")
    throw new Error("fleet: the stream did not start with a task");
  const id = first.payload.value.id;
  const rest = arrivals({ [Symbol.asyncIterator]: () => iterator });
  const onOwner = arrivals(a.resubscribeTask({ tenant: "", id }));
  const onOther = arrivals(b.resubscribeTask({ tenant: "", id }));
  const [sent, owner, other] = await Promise.all([rest, onOwner, onOther]);
  // Matched from the end (the terminal status is every stream's last); snapshots excluded.
  const n = Math.min(events, sent.length, owner.length - 1, other.length - 1);
  const behind = (later: number[], earlier: number[]) =>
    Array.from(
      { length: n },
      (_, i) => (later.at(-1 - i) as number) - (earlier.at(-1 - i) as number),
    );
  // The second: the owner's subscriber against the sender's stream, for scale (negative: ahead).
  return { extra: behind(other, owner), ownerAhead: behind(owner, sent), events: n };
}

export async function fleet(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const postgres = await startTestPostgres();
  const servers: ExtraServer[] = [];
  try {
    const url = await postgres.createDatabase();
    const config = (instanceId: string) => ({
      server: { instanceId },
      store: { type: "postgres" as const, url },
      streaming: { flushMs: 0 },
    });
    servers.push(
      ...(await startTogether([
        rig.extraServer(config("bench-a")),
        rig.extraServer(config("bench-b")),
      ])),
    );
    const [a, b] = servers.map((s) => s.client) as [Client, Client];
    const measured = plan.fleetEvents;
    const deltas = measured + LEAD_DELTAS;
    // Warm-up, unmeasured: the Claude Code process, both subscriptions' paths.
    await round(a, b, pacedPrompt(WARM_UP_DELTAS, PACE_MS, "warm-up"), WARM_UP_DELTAS);
    const kinds = {
      steady: (r: number) => pacedPrompt(deltas, PACE_MS, `r${r}`),
      burst: (r: number) => longPrompt(deltas, `r${r}`),
    };
    const extra = { steady: [] as number[], burst: [] as number[] };
    const ownerAhead: number[] = [];
    for (let r = 0; r < plan.fleetRounds; r++) {
      for (const kind of ["steady", "burst"] as const) {
        const got = await round(a, b, kinds[kind](r), measured);
        if (got.events < measured) log(`fleet: ${kind} round ${r} measured ${got.events} events`);
        extra[kind].push(...got.extra);
        if (kind === "burst") ownerAhead.push(...got.ownerAhead);
      }
    }
    const events = `${measured.toLocaleString("en-US")} events`;
    const row = (group: string, variant: string, samples: number[], target?: string): Row => ({
      scenario: "fleet",
      group,
      variant,
      unit: "ms",
      samples,
      ...(target !== undefined && { target }),
    });
    return [
      row(
        `behind the owner's subscriber, ${events}`,
        `other instance, 1 event / ${PACE_MS} ms`,
        extra.steady,
        "p95 ≤ 50 ms",
      ),
      row(`behind the owner's subscriber, ${events}`, "other instance, burst", extra.burst),
      row(`behind the sending stream, ${events}`, "owner's subscriber, burst", ownerAhead),
    ];
  } finally {
    for (const s of servers) await s.close();
    await postgres.stop();
  }
}
