/** The replay log: which cursors can be replayed (pure), and the events kept in SQLite. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TaskState } from "@a2a-js/sdk";
import pino from "pino";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../../src/store/database.js";
import { KeptEvents, MAX_CACHED_SENDS, pruneInterval } from "../../../src/store/kept-events.js";
import { parseCursor, replayDecision } from "../../../src/store/replay-log.js";
import { migrateReplay, SqlReplayBackend } from "../../../src/store/sql-replay-backend.js";
import { SqliteReplayBackend } from "../../../src/store/sqlite-replay-backend.js";
import { numberedStatus } from "../../support/unit/stream-events.js";

const logger = pino({ level: "silent" });

describe("replayDecision", () => {
  it.each([
    // cursor, kept, knownLast, decision
    [0, { oldest: 1, last: 5 }, 5, "events"],
    [5, { oldest: 1, last: 5 }, 5, "events"],
    [3, { oldest: 4, last: 5 }, 5, "events"],
    [2, { oldest: 4, last: 5 }, 5, { kind: "gone", oldest: 4 }],
    [6, { oldest: 1, last: 5 }, 5, { kind: "ahead", last: 5 }],
    [0, { oldest: undefined, last: undefined }, 0, "events"],
    [1, { oldest: undefined, last: undefined }, 4, { kind: "gone", oldest: undefined }],
    [4, { oldest: undefined, last: undefined }, 4, "events"],
    // Kept short of what the stored task reached (written behind): what is kept, the rest live.
    [2, { oldest: 1, last: 3 }, 6, "events"],
  ] as const)("cursor %i over %j (known %i): %j", (cursor, kept, known, decision) => {
    expect(replayDecision(cursor, kept, known)).toEqual(decision);
  });

  it.each([
    ["17", 17],
    [" 3 ", 3],
    ["0", 0],
    [4, 4],
    ["-1", undefined],
    ["1.5", undefined],
    ["abc", undefined],
    ["", undefined],
    [-2, undefined],
  ] as const)("parseCursor(%j) is %j", (value, cursor) => {
    expect(parseCursor(value)).toBe(cursor);
  });
});

describe("pruneInterval", () => {
  it.each([
    // replay.retainMs, how often retention runs
    [0, 1_000],
    [200, 1_000],
    [5_000, 5_000],
    [3_600_000, 60_000],
  ] as const)("retention %i ms: every %i ms", (retainMs, every) => {
    expect(pruneInterval(retainMs)).toBe(every);
  });
});

const BACKENDS = [
  {
    name: "Kysely's queries (PostgreSQL's path)",
    make: (d: Database) => new SqlReplayBackend(d.db),
  },
  {
    name: "prepared statements (SQLite's path)",
    make: (d: Database) =>
      d.type === "sqlite"
        ? new SqliteReplayBackend(d.db, d.statements)
        : new SqlReplayBackend(d.db),
  },
];

describe.each(BACKENDS)("KeptEvents over SQLite, $name", ({ make }) => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function open(now: () => number, delayMs?: number) {
    dir ??= await mkdtemp(join(tmpdir(), "claude-a2a-replay-"));
    const database = await openDatabase({ type: "sqlite", file: join(dir, "db.sqlite") });
    await migrateReplay(database.db);
    const backend = make(database);
    return {
      db: database.db,
      log: () => new KeptEvents({ backend, retainMs: 1_000, logger, now, delayMs }),
    };
  }

  it("writes the events behind; another reader finds them; retention drops a finished task's", async () => {
    let now = 10_000;
    const { db, log } = await open(() => now);
    const writer = log();
    writer.append("t1", 1, numberedStatus("t1", TaskState.TASK_STATE_WORKING, 1), false);
    writer.append("t1", 2, numberedStatus("t1", TaskState.TASK_STATE_WORKING, 2), false);
    writer.append("t1", 3, numberedStatus("t1", TaskState.TASK_STATE_COMPLETED, 3), true);
    writer.recordSend("ws\u001f", "m-1", { owner: "alice", taskId: "t1", after: 0 });
    await writer.flush();

    const reader = log();
    const read = await reader.read("t1", 1);
    expect(read.kind === "events" && read.events.map((e) => e.n)).toEqual([2, 3]);
    expect(await reader.last("t1")).toBe(3);
    expect(await reader.findSend("ws\u001f", "m-1")).toEqual({
      owner: "alice",
      taskId: "t1",
      after: 0,
    });

    now += 1_001;
    await reader.prune();
    expect(await reader.read("t1", 1, 3)).toEqual({ kind: "gone", oldest: undefined });
    expect(await reader.findSend("ws\u001f", "m-1")).toBeUndefined();
    await writer.close();
    await reader.close();
    await db.destroy();
  });

  it("a batch of many events (several insert statements) is written whole, in order", async () => {
    const { db, log } = await open(() => 1);
    const writer = log();
    for (let n = 1; n <= 19; n++) {
      const state = n === 19 ? TaskState.TASK_STATE_COMPLETED : TaskState.TASK_STATE_WORKING;
      writer.append("t5", n, numberedStatus("t5", state, n), n === 19);
    }
    writer.recordSend("ws\u001f", "m-5", { owner: "alice", taskId: "t5", after: 0 });
    await writer.flush();
    const read = await log().read("t5", 0);
    expect(read.kind === "events" && read.events.map((e) => e.n)).toEqual(
      Array.from({ length: 19 }, (_, i) => i + 1),
    );
    expect(await log().findSend("ws\u001f", "m-5")).toMatchObject({ taskId: "t5" });
    await writer.close();
    await db.destroy();
  });

  it("remembers the latest sends only: an older one is answered from the database", async () => {
    const { db, log } = await open(() => 1);
    const writer = log();
    const sends = MAX_CACHED_SENDS * 4;
    for (let i = 0; i < sends; i++) {
      writer.recordSend("ws\u001f", `m-${i}`, { owner: "alice", taskId: `t${i}`, after: 0 });
    }
    await writer.flush();
    expect(writer.cachedSends).toBe(MAX_CACHED_SENDS);
    expect(await writer.findSend("ws\u001f", "m-0")).toMatchObject({ taskId: "t0" });
    expect(await writer.findSend("ws\u001f", `m-${sends - 1}`)).toMatchObject({
      taskId: `t${sends - 1}`,
    });
    await writer.close();
    await db.destroy();
  });

  it("an event appended with `now` is written without waiting for the batch (a task that waits on its caller)", async () => {
    // A batch an hour away: only the immediate write can land within the wait.
    const { db, log } = await open(() => 1, 3_600_000);
    const writer = log();
    writer.append("t3", 1, numberedStatus("t3", TaskState.TASK_STATE_WORKING, 1), false);
    writer.append(
      "t3",
      2,
      numberedStatus("t3", TaskState.TASK_STATE_INPUT_REQUIRED, 2),
      false,
      true,
    );
    const reader = log();
    await expect
      .poll(async () => (await reader.last("t3")) ?? 0, { timeout: 20_000, interval: 20 })
      .toBe(2);
    await writer.close();
    await reader.close();
    await db.destroy();
  });

  it("a write during a transaction the task store has open waits for it: a rollback there loses none of its rows", async () => {
    const { db, log } = await open(() => 1);
    const writer = log();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inside!: () => void;
    const opened = new Promise<void>((resolve) => (inside = resolve));
    const rolledBack = db
      .transaction()
      .execute(async (trx) => {
        await sql`CREATE TABLE scratch (x INTEGER)`.execute(trx);
        inside();
        await held;
        throw new Error("roll back");
      })
      .catch(() => "rolled back");
    await opened;
    writer.append("t4", 1, numberedStatus("t4", TaskState.TASK_STATE_COMPLETED, 1), true);
    const written = writer.flush();
    release();
    expect(await rolledBack).toBe("rolled back");
    await written;
    const read = await log().read("t4", 0);
    expect(read.kind === "events" && read.events.map((e) => e.n)).toEqual([1]);
    await writer.close();
    await db.destroy();
  });

  it("retention's index holds terminal rows only; a database with the earlier index of every row loses it", async () => {
    const { db } = await open(() => 1);
    await sql`CREATE INDEX claude_a2a_replay_events_ended ON claude_a2a_replay_events (ends, at)`.execute(
      db,
    );
    await migrateReplay(db);
    const { rows } = await sql<{ name: string; sql: string }>`
      SELECT name, sql FROM sqlite_master
       WHERE type = 'index' AND tbl_name = 'claude_a2a_replay_events' AND sql IS NOT NULL`.execute(
      db,
    );
    expect(rows.map((r) => r.name)).toEqual(["claude_a2a_replay_events_end_at"]);
    expect(rows[0]?.sql).toMatch(/WHERE ends = 1/);
    const plan = await sql<{ detail: string }>`EXPLAIN QUERY PLAN
      SELECT task_id FROM claude_a2a_replay_events WHERE ends = 1 AND at < ${5}`.execute(db);
    expect(plan.rows.map((r) => r.detail).join()).toContain("claude_a2a_replay_events_end_at");
    await db.destroy();
  });

  it("a write that fails is kept and written once the database takes it again", async () => {
    const { db, log } = await open(() => 1);
    const writer = log();
    await db.schema.dropTable("claude_a2a_replay_events").execute();
    writer.append("t2", 1, numberedStatus("t2", TaskState.TASK_STATE_WORKING, 1), false);
    await writer.flush();
    await migrateReplay(db);
    await writer.flush();
    const read = await log().read("t2", 0);
    expect(read.kind === "events" && read.events.map((e) => e.n)).toEqual([1]);
    await writer.close();
    await db.destroy();
  });
});
