/**
 * A fleet that keeps events for replay relays them from the replay table (issue 33: one write
 * of each event serves both), against a real PostgreSQL: a subscriber on another instance reads
 * the owner's numbered events in order, its cursor is the event number, a forwarded answer's
 * `lastSeq` is the task's last number, and the fleet's own events table stays empty.
 */
import { TaskState } from "@a2a-js/sdk";
import pg from "pg";
import pino from "pino";
import { Registry } from "prom-client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eventNumberOf } from "../../../src/a2a/channel/event-numbers.js";
import { Fleet } from "../../../src/fleet/fleet.js";
import { openDatabase, type Database } from "../../../src/store/database.js";
import { KeptEvents } from "../../../src/store/kept-events.js";
import { migrateReplay, SqlReplayBackend } from "../../../src/store/sql-replay-backend.js";
import { useTestPostgres } from "../../support/unit/postgres.js";
import { numberedStatus } from "../../support/unit/stream-events.js";

const logger = pino({ level: "silent" });
const postgres = useTestPostgres();
let owner: Fleet | undefined;
let other: Fleet | undefined;
let kept: KeptEvents | undefined;
let database: Database | undefined;
let client: pg.Client | undefined;

const config = {
  leaseMs: 30_000,
  heartbeatMs: 5_000,
  eventRetentionMs: 600_000,
  commandTimeoutMs: 1_000,
};

beforeEach(async () => {
  const url = await postgres.createDatabase();
  database = await openDatabase({ type: "postgres", url });
  await migrateReplay(database.db);
  owner = await Fleet.open({ url, instanceId: "owner", config, logger, registry: new Registry() });
  other = await Fleet.open({ url, instanceId: "other", config, logger, registry: new Registry() });
  // As agent.ts wires it: each instance's replay log keeps through the backend the fleet relays.
  const log = { flush: (): Promise<void> => kept?.flush() ?? Promise.resolve() };
  const backend = owner.relayReplay(new SqlReplayBackend(database.db), log);
  other.relayReplay(new SqlReplayBackend(database.db), { flush: () => Promise.resolve() });
  kept = new KeptEvents({ backend, retainMs: 600_000, logger });
  client = new pg.Client({ connectionString: url });
  await client.connect();
});
afterEach(async () => {
  await kept?.close();
  await owner?.close();
  await other?.close();
  await client?.end();
  await database?.db.destroy();
});

/** The owner's task: working three times, then completed, numbered from `from`. */
function publish(taskId: string, from = 1): void {
  for (let i = 0; i < 3; i++) {
    kept!.append(
      taskId,
      from + i,
      numberedStatus(taskId, TaskState.TASK_STATE_WORKING, from + i),
      false,
    );
  }
  kept!.append(
    taskId,
    from + 3,
    numberedStatus(taskId, TaskState.TASK_STATE_COMPLETED, from + 3),
    true,
  );
}

const rows = async (table: string) => {
  const { rows: r } = await client!.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
  return Number(r[0]?.n);
};

describe("the fleet relays from the replay table", () => {
  it("another instance's subscriber reads the owner's numbered events in order", async () => {
    const subscription = await other!.events.subscribe("t1");
    publish("t1");
    const got: [number | undefined, unknown][] = [];
    for await (const e of subscription.events(() => Promise.resolve(true))) {
      const state = e.payload?.$case === "statusUpdate" ? e.payload.value.status?.state : e;
      got.push([eventNumberOf(e), state]);
    }
    await subscription.close();
    expect(got).toEqual([
      [1, TaskState.TASK_STATE_WORKING],
      [2, TaskState.TASK_STATE_WORKING],
      [3, TaskState.TASK_STATE_WORKING],
      [4, TaskState.TASK_STATE_COMPLETED],
    ]);
    // Each event was written once, in the replay table; the fleet's own table is not used.
    expect(await rows("claude_a2a_replay_events")).toBe(4);
    expect(await rows("claude_a2a_task_events")).toBe(0);
  });

  it("a subscriber starts after what is stored; lastSeq is the task's last event number once written", async () => {
    publish("t2");
    expect(await owner!.events.lastSeq("t2")).toBe(4);
    const subscription = await other!.events.subscribe("t2");
    publish("t2", 5);
    const numbers: (number | undefined)[] = [];
    for await (const e of subscription.events(() => Promise.resolve(true))) {
      numbers.push(eventNumberOf(e));
    }
    await subscription.close();
    expect(numbers).toEqual([5, 6, 7, 8]);
  });

  it("fleet pruning leaves the replay table to the replay retention", async () => {
    publish("t3");
    await kept!.flush();
    await owner!.events.prune({ graceMs: 0, retentionMs: 0 });
    expect(await rows("claude_a2a_replay_events")).toBe(4);
  });
});
