/**
 * The SQLite stores as the server assembles them: the write-behind store's pending progress is
 * what a read answers, over the older row the prepared statements would find on disk.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TaskState } from "@a2a-js/sdk";
import { DatabaseTaskStore } from "@a2a-js/sdk/server/database";
import { pino } from "pino";
import { afterEach, beforeEach, expect, it } from "vitest";
import { openDatabase, SQLITE_CACHE_KIB, type Database } from "../../../src/store/database.js";
import { sqliteStores } from "../../../src/store/sqlite-stores.js";
import { rawCaller, task } from "./store-contract.js";

const alice = rawCaller("alice");
const bob = rawCaller("bob");

let dir: string;
let database: Extract<Database, { type: "sqlite" }>;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "claude-a2a-stores-"));
  database = await openDatabase({ type: "sqlite", file: join(dir, "tasks.db") });
});
afterEach(async () => {
  await database.db.destroy();
  await rm(dir, { recursive: true, force: true });
});

it("a pending progress save wins over the row on disk, for its caller only", async () => {
  const stores = sqliteStores(database.db, database.statements, pino({ level: "silent" }));
  const disk = new DatabaseTaskStore(database.db);
  await stores.taskStore.save(task("t-1", TaskState.TASK_STATE_SUBMITTED, { history: 1 }), alice);
  await stores.taskStore.save(task("t-1", TaskState.TASK_STATE_WORKING, { history: 2 }), alice);
  // Progress is written behind: the disk still has the creation, the store answers the progress.
  expect((await disk.load("t-1", alice))?.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
  expect((await stores.taskStore.load("t-1", alice))?.status?.state).toBe(
    TaskState.TASK_STATE_WORKING,
  );
  expect(await stores.taskStore.load("t-1", bob)).toBeUndefined();
  // ListTasks writes what is pending first, then reads the disk.
  const listed = await stores.taskStore.list(
    {
      tenant: "",
      contextId: "",
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize: 50,
      pageToken: "",
      historyLength: undefined,
      statusTimestampAfter: undefined,
      includeArtifacts: undefined,
    },
    alice,
  );
  expect(listed.tasks.map((t) => t.status?.state)).toEqual([TaskState.TASK_STATE_WORKING]);
  expect((await disk.load("t-1", alice))?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
  await stores.flush();
});

it("opens the connection with a page cache that holds a typical store's pages", () => {
  const row = database.statements.prepare("pragma cache_size").get() as { cache_size: number };
  expect(row.cache_size).toBe(-SQLITE_CACHE_KIB);
});
