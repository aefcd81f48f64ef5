/**
 * A save on SQLite through a prepared statement writes exactly the row the SDK's own
 * DatabaseTaskStore writes (every column, every caller scope, the upsert of a task saved again),
 * and a batch of saves is one transaction: nothing of it is written when one of its rows fails.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TaskState, type Task } from "@a2a-js/sdk";
import { ServerCallContext } from "@a2a-js/sdk/server";
import { DatabaseTaskStore } from "@a2a-js/sdk/server/database";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../../src/store/database.js";
import { SqliteTaskStore } from "../../../src/store/sqlite-task-list.js";
import { rawCaller, task } from "./store-contract.js";

let dir: string;
let theirs: Extract<Database, { type: "sqlite" }>;
let mine: Extract<Database, { type: "sqlite" }>;
let sdk: DatabaseTaskStore;
let ours: SqliteTaskStore;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "claude-a2a-save-"));
  theirs = await openDatabase({ type: "sqlite", file: join(dir, "sdk.db") });
  mine = await openDatabase({ type: "sqlite", file: join(dir, "ours.db") });
  sdk = new DatabaseTaskStore(theirs.db);
  ours = new SqliteTaskStore(mine.db, mine.statements, pino({ level: "silent" }));
});

afterAll(async () => {
  await theirs.db.destroy();
  await mine.db.destroy();
  await rm(dir, { recursive: true, force: true });
});

const rowsOf = (database: Extract<Database, { type: "sqlite" }>) =>
  database.statements.prepare("select * from tasks order by tenant, owner, id").all();

const bare: Task = {
  id: "bare-1",
  contextId: "",
  status: undefined,
  history: [],
  artifacts: [],
  metadata: undefined,
};

describe("SqliteTaskStore.save", () => {
  const alice = rawCaller("alice");
  const cases: [string, Task, ServerCallContext][] = [
    ["a task with history and artifacts", task("t-1", TaskState.TASK_STATE_WORKING), alice],
    [
      "a longer one in another context",
      task("t-2", TaskState.TASK_STATE_COMPLETED, { history: 4, artifacts: 2, contextId: "c-2" }),
      alice,
    ],
    [
      "metadata with numbers and nesting",
      { ...task("t-3", TaskState.TASK_STATE_INPUT_REQUIRED), metadata: { n: 3, a: { b: [1] } } },
      alice,
    ],
    ["no status, no context, no metadata", bare, alice],
    [
      "an unreadable timestamp",
      {
        ...task("t-4", TaskState.TASK_STATE_FAILED),
        status: { state: TaskState.TASK_STATE_FAILED, message: undefined, timestamp: "later" },
      },
      alice,
    ],
    ["another caller", task("t-1", TaskState.TASK_STATE_WORKING), rawCaller("bob")],
    ["another tenant", task("t-1", TaskState.TASK_STATE_WORKING), rawCaller("alice", "other")],
    ["an anonymous caller", task("t-5", TaskState.TASK_STATE_WORKING), new ServerCallContext()],
  ];

  it("writes the rows the SDK's store writes, column for column", async () => {
    for (const [, t, context] of cases) {
      await sdk.save(t, context);
      await ours.save(t, context);
    }
    expect(rowsOf(mine)).toHaveLength(cases.length);
    expect(rowsOf(mine)).toEqual(rowsOf(theirs));
  });

  it("replaces a task saved again, as the SDK's upsert does", async () => {
    const again = task("t-1", TaskState.TASK_STATE_COMPLETED, { history: 3, contextId: "c-9" });
    await sdk.save(again, alice);
    await ours.save(again, alice);
    expect(rowsOf(mine)).toEqual(rowsOf(theirs));
    expect(await ours.load("t-1", alice)).toEqual(await sdk.load("t-1", alice));
  });

  it("saves a batch in one transaction, all of it", async () => {
    const batch = ["b-1", "b-2", "b-3"].map((id) => ({
      task: task(id, TaskState.TASK_STATE_WORKING),
      context: alice,
    }));
    await ours.saveAll(batch);
    for (const { task: t } of batch) expect((await ours.load(t.id, alice))?.id).toBe(t.id);
  });

  it("writes nothing of a batch when one of its rows fails, and says why", async () => {
    mine.statements
      .prepare(
        "create trigger refuse_bad before insert on tasks when new.id = 'bad' " +
          "begin select raise(abort, 'refused by the test'); end",
      )
      .run();
    const before = rowsOf(mine);
    const batch = ["c-1", "bad", "c-3"].map((id) => ({
      task: task(id, TaskState.TASK_STATE_WORKING),
      context: alice,
    }));
    await expect(ours.saveAll(batch)).rejects.toThrow("refused by the test");
    expect(rowsOf(mine)).toEqual(before);
    // The connection is usable afterwards: no transaction was left open.
    expect(mine.statements.inTransaction).toBe(false);
    await ours.save(task("c-4", TaskState.TASK_STATE_WORKING), alice);
    expect((await ours.load("c-4", alice))?.id).toBe("c-4");
  });

  it("refuses a task without an id and writes nothing", async () => {
    const before = rowsOf(mine);
    const noId = { ...task("x", TaskState.TASK_STATE_WORKING), id: undefined } as unknown as Task;
    await expect(ours.save(noId, alice)).rejects.toThrow("task has no id");
    expect(rowsOf(mine)).toEqual(before);
  });

  it("waits for a transaction of Kysely's that is open, and does not land inside it", async () => {
    let saved: Promise<void> | undefined;
    await expect(
      mine.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("tasks" as never)
          .values({
            tenant: "",
            owner: "alice",
            id: "k-1",
            context_id: "",
            status_last_updated: 0,
          })
          .execute();
        saved = ours.save(task("k-2", TaskState.TASK_STATE_WORKING), alice);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    await saved;
    expect(await ours.load("k-1", alice)).toBeUndefined();
    expect((await ours.load("k-2", alice))?.id).toBe("k-2");
  });
});
