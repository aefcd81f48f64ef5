/**
 * store.retainDays "at startup and daily": the first pass runs at once, the next one a day later
 * (the clock seam drives both), and stop() ends the schedule. Against a real SQLite store.
 */
import { mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TaskState } from "@a2a-js/sdk";
import { DatabaseTaskStore } from "@a2a-js/sdk/server/database";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { INBOX_DIR } from "../../../src/workspace/inbox.js";
import { openDatabase, type Database } from "../../../src/store/database.js";
import { DAY_MS, scheduleRetention } from "../../../src/store/retention.js";
import type { Timers } from "../../../src/common/timers.js";
import { as, task } from "./store-contract.js";

/** Timers that fire only when the test says, with the delay each was armed for. */
class ManualTimers implements Timers {
  readonly pending = new Map<number, { fn: () => void; ms: number }>();
  private seq = 0;
  setTimeout(fn: () => void, ms: number): unknown {
    this.pending.set(++this.seq, { fn, ms });
    return this.seq;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  fireAll(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const t of due) t.fn();
  }
}

const alice = as("alice");
let dir: string;
let database: Database;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "claude-a2a-retention-"));
  database = await openDatabase({ type: "sqlite", file: join(dir, ".claude", "a2a.db") });
});
afterEach(async () => {
  await database.db.destroy();
  await rm(dir, { recursive: true, force: true });
});

describe("scheduleRetention", () => {
  it("prunes at startup, then again a day later: a task that expired meanwhile goes, with its inbox folder", async () => {
    const store = new DatabaseTaskStore(database.db);
    let now = new Date();
    const inbox = (id: string) => join(dir, INBOX_DIR, id);
    await store.save(
      task("t-expired", TaskState.TASK_STATE_COMPLETED, {
        at: new Date(now.getTime() - 31 * DAY_MS),
      }),
      alice,
    );
    // 29.5 days old at startup: kept now, expired by the next daily pass.
    await store.save(
      task("t-later", TaskState.TASK_STATE_COMPLETED, {
        at: new Date(now.getTime() - 29.5 * DAY_MS),
      }),
      alice,
    );
    for (const id of ["t-expired", "t-later"]) await mkdir(inbox(id), { recursive: true });

    const timers = new ManualTimers();
    const retention = scheduleRetention({
      db: database.db,
      cwd: dir,
      retainDays: 30,
      logger: pino({ level: "silent" }),
      now: () => now,
      timers,
    });
    await retention.first;
    expect(await store.load("t-expired", alice)).toBeUndefined();
    await expect(stat(inbox("t-expired"))).rejects.toThrow(/ENOENT/);
    expect((await store.load("t-later", alice))?.id).toBe("t-later");
    expect([...timers.pending.values()].map((t) => t.ms)).toEqual([DAY_MS]);

    now = new Date(now.getTime() + DAY_MS);
    timers.fireAll();
    // The pass runs, then re-arms for the next day.
    await expect.poll(() => timers.pending.size).toBe(1);
    expect(await store.load("t-later", alice)).toBeUndefined();
    await expect(stat(inbox("t-later"))).rejects.toThrow(/ENOENT/);

    retention.stop();
    expect(timers.pending.size).toBe(0);
  });
});
