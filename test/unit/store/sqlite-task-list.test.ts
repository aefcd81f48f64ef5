/**
 * GetTask's load and ListTasks on SQLite through prepared statements answer exactly what the
 * SDK's own DatabaseTaskStore answers, for every parameter and caller scope, on the same database.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TaskState, type ListTasksRequest } from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import { ServerCallContext } from "@a2a-js/sdk/server";
import { DatabaseTaskStore } from "@a2a-js/sdk/server/database";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVERY_TASK } from "../../support/harness/messages.js";
import { openDatabase, type Database } from "../../../src/store/database.js";
import { listQueries, SqliteTaskStore } from "../../../src/store/sqlite-task-list.js";
import { rawCaller, task } from "./store-contract.js";

const alice = rawCaller("alice");
const bob = rawCaller("bob");
const anonymous = new ServerCallContext();
const aliceElsewhere = rawCaller("alice", "other");

const base = EVERY_TASK;

let dir: string;
let database: Extract<Database, { type: "sqlite" }>;
let sdk: DatabaseTaskStore;
let ours: SqliteTaskStore;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "claude-a2a-list-"));
  database = await openDatabase({ type: "sqlite", file: join(dir, "tasks.db") });
  sdk = new DatabaseTaskStore(database.db);
  ours = new SqliteTaskStore(database.db, database.statements, pino({ level: "silent" }));
  const t0 = Date.parse("2026-01-01T00:00:00Z");
  const states = [
    TaskState.TASK_STATE_COMPLETED,
    TaskState.TASK_STATE_FAILED,
    TaskState.TASK_STATE_WORKING,
  ];
  for (let i = 0; i < 30; i++) {
    // Pairs share a timestamp, so the cursor's tie-break on id is exercised.
    const at = new Date(t0 + Math.floor(i / 2) * 1000);
    const contextId = `ctx-${i % 3}`;
    await sdk.save(
      task(`t-${String(i).padStart(2, "0")}`, states[i % 3] as TaskState, {
        contextId,
        at,
        history: 2,
        artifacts: 1,
      }),
      alice,
    );
  }
  await sdk.save(task("bob-1", TaskState.TASK_STATE_COMPLETED, { contextId: "ctx-0" }), bob);
  await sdk.save(task("anon-1", TaskState.TASK_STATE_COMPLETED, { contextId: "ctx-0" }), anonymous);
  await sdk.save(task("elsewhere-1", TaskState.TASK_STATE_WORKING), aliceElsewhere);
});

afterAll(async () => {
  await database.db.destroy();
  await rm(dir, { recursive: true, force: true });
});

/** Every page of a listing, following the tokens. */
async function allPages(
  store: DatabaseTaskStore,
  params: ListTasksRequest,
  context: ServerCallContext,
) {
  const pages = [];
  let pageToken = "";
  do {
    const page = await store.list({ ...params, pageToken }, context);
    pages.push(page);
    pageToken = page.nextPageToken;
  } while (pageToken !== "" && pages.length < 50);
  return pages;
}

describe("SqliteTaskStore.list", () => {
  const cases: [string, Partial<ListTasksRequest>, ServerCallContext][] = [
    ["everything, default page", {}, alice],
    ["by context, pages of 4", { contextId: "ctx-1", pageSize: 4 }, alice],
    ["by status, pages of 3", { status: TaskState.TASK_STATE_FAILED, pageSize: 3 }, alice],
    ["after a time", { statusTimestampAfter: "2026-01-01T00:00:07Z", pageSize: 5 }, alice],
    ["no history", { historyLength: 0, contextId: "ctx-2" }, alice],
    ["with artifacts", { includeArtifacts: true, pageSize: 7 }, alice],
    ["another caller", { contextId: "ctx-0" }, bob],
    ["anonymous", {}, anonymous],
    ["nothing matches", { contextId: "nope" }, alice],
  ];
  it.each(cases)("%s: the SDK's pages, tokens and totals", async (_name, params, context) => {
    const expected = await allPages(sdk, { ...base, ...params }, context);
    const actual = await allPages(ours, { ...base, ...params }, context);
    expect(actual).toEqual(expected);
    expect(actual[0]?.totalSize).toBe(expected[0]?.totalSize);
  });

  it("refuses a page token that is not a cursor, as the SDK does", async () => {
    const token = Buffer.from("no separator").toString("base64");
    await expect(sdk.list({ ...base, pageToken: token }, alice)).rejects.toBeInstanceOf(
      RequestMalformedError,
    );
    await expect(ours.list({ ...base, pageToken: token }, alice)).rejects.toBeInstanceOf(
      RequestMalformedError,
    );
  });

  it("builds the count and the page from the same filters, the page with one row more", () => {
    const q = listQueries(
      { tenant: "", owner: "alice" },
      { ...base, contextId: "c", pageSize: 50 },
    );
    expect(q.count.sql).toContain("context_id = ?");
    expect(q.count.parameters).toEqual(["", "alice", "c"]);
    expect(q.page.parameters).toEqual(["", "alice", "c", 51]);
    expect(q.page.sql).not.toContain("artifacts");
  });
});

describe("SqliteTaskStore.load", () => {
  const cases: [string, string, ServerCallContext][] = [
    ["the caller's own task", "t-07", alice],
    ["a task with two messages and an artifact", "t-29", alice],
    ["another caller's task is not found", "t-07", bob],
    ["the other caller's own", "bob-1", bob],
    ["anonymous's own", "anon-1", anonymous],
    ["not anonymous's", "bob-1", anonymous],
    ["another tenant's task of the same caller is not found", "elsewhere-1", alice],
    ["that tenant's own", "elsewhere-1", aliceElsewhere],
    ["an unknown id", "nope", alice],
  ];
  it.each(cases)("%s: what the SDK's store loads", async (_name, id, context) => {
    const expected = await sdk.load(id, context);
    expect(await ours.load(id, context)).toEqual(expected);
  });

  it("finds what the scopes say, and nothing across them", async () => {
    expect((await ours.load("t-07", alice))?.id).toBe("t-07");
    expect(await ours.load("t-07", bob)).toBeUndefined();
    expect(await ours.load("elsewhere-1", alice)).toBeUndefined();
  });

  it("sees a save at once, as the SDK's does", async () => {
    const changed = task("t-03", TaskState.TASK_STATE_CANCELED, { history: 3, artifacts: 2 });
    await sdk.save({ ...changed, contextId: "ctx-0" }, alice);
    expect(await ours.load("t-03", alice)).toEqual(await sdk.load("t-03", alice));
    expect((await ours.load("t-03", alice))?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it("refuses an unreadable row with the task's id, as the SDK does", async () => {
    database.statements
      .prepare(
        "insert into tasks (tenant, owner, id, context_id, status_last_updated, status) values (?, ?, ?, ?, ?, ?)",
      )
      .run("", "alice", "broken-1", "ctx-9", 0, "{not json");
    await expect(sdk.load("broken-1", alice)).rejects.toThrow('task "broken-1" is not readable');
    await expect(ours.load("broken-1", alice)).rejects.toThrow('task "broken-1" is not readable');
  });
});
