import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TaskState, type Task } from "@a2a-js/sdk";
import { ServerCallContext } from "@a2a-js/sdk/server";
import BetterSqlite3 from "better-sqlite3";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CallerUser } from "../../../src/identity/caller.js";
import { agentMessage, artifact, textPart } from "../../../src/contract/messages.js";
import { openTaskStores, type TaskStores } from "../../../src/store/task-stores.js";
import {
  PROGRESS_DELAY_MS,
  WriteBehindTaskStore,
} from "../../../src/store/write-behind-task-store.js";

const alice = new ServerCallContext({ user: new CallerUser({ kind: "login", login: "alice" }) });
const bob = new ServerCallContext({ user: new CallerUser({ kind: "login", login: "bob" }) });

function task(id: string, state: TaskState, text = ""): Task {
  const ref = { taskId: id, contextId: "ctx-1" };
  return {
    id,
    contextId: "ctx-1",
    status: { state, message: undefined, timestamp: new Date().toISOString() },
    history: [agentMessage(ref, [textPart("prompt")])],
    artifacts: text === "" ? [] : [artifact("response", "response", [textPart(text)], {})],
    metadata: {},
  };
}

let cwd = "";
let stores: TaskStores;
let file = "";
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "a2a-write-behind-"));
  file = join(cwd, ".claude", "claude-a2a.db");
  stores = await openTaskStores({
    store: { type: "sqlite", path: ".claude/claude-a2a.db", retainDays: 30 },
    cwd,
    logger: pino({ level: "silent" }),
  });
});
afterEach(async () => {
  await stores.close();
  await rm(cwd, { recursive: true, force: true });
});

/** What the database file itself holds for a task (another connection: what survives a crash). */
function onDisk(id: string): { state: string | null; artifacts: string | null } | undefined {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return db
      .prepare<[string], { state: string | null; artifacts: string | null }>(
        "select status_state as state, artifacts from tasks where id = ?",
      )
      .get(id);
  } finally {
    db.close();
  }
}

describe("SQLite task store: when tasks are written", () => {
  it("a task's creation, input-required and terminal saves are on disk when the save returns", async () => {
    const { taskStore } = stores;
    await taskStore.save(task("t1", TaskState.TASK_STATE_SUBMITTED), alice);
    expect(onDisk("t1")?.state).toBe("TASK_STATE_SUBMITTED");
    await taskStore.save(task("t1", TaskState.TASK_STATE_WORKING), alice);
    await taskStore.save(task("t1", TaskState.TASK_STATE_INPUT_REQUIRED), alice);
    expect(onDisk("t1")?.state).toBe("TASK_STATE_INPUT_REQUIRED");
    await taskStore.save(task("t1", TaskState.TASK_STATE_WORKING, "partial"), alice);
    await taskStore.save(task("t1", TaskState.TASK_STATE_COMPLETED, "all of it"), alice);
    expect(onDisk("t1")?.state).toBe("TASK_STATE_COMPLETED");
    expect(onDisk("t1")?.artifacts).toContain("all of it");
  });

  it("a read right after a progress save sees it, before the database does", async () => {
    const { taskStore } = stores;
    await taskStore.save(task("t2", TaskState.TASK_STATE_SUBMITTED), alice);
    await taskStore.save(task("t2", TaskState.TASK_STATE_WORKING, "first chunk"), alice);
    // The progress write is pending: the row still says submitted.
    expect(onDisk("t2")?.state).toBe("TASK_STATE_SUBMITTED");
    const read = await taskStore.load("t2", alice);
    expect(read?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(JSON.stringify(read?.artifacts)).toContain("first chunk");
    // Another caller's scope never sees it.
    expect(await taskStore.load("t2", bob)).toBeUndefined();
  });

  it("ListTasks right after a progress save lists it as saved", async () => {
    const { taskStore } = stores;
    await taskStore.save(task("t3", TaskState.TASK_STATE_SUBMITTED), alice);
    await taskStore.save(task("t3", TaskState.TASK_STATE_WORKING, "chunk"), alice);
    const page = await taskStore.list(
      {
        tenant: "",
        contextId: "ctx-1",
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageSize: undefined,
        pageToken: "",
        historyLength: undefined,
        statusTimestampAfter: undefined,
        includeArtifacts: true,
      },
      alice,
    );
    expect(page.tasks.map((t) => t.status?.state)).toEqual([TaskState.TASK_STATE_WORKING]);
    expect(onDisk("t3")?.state).toBe("TASK_STATE_WORKING");
  });

  it("a read hands out a copy: changing it changes neither the store nor the next read", async () => {
    const { taskStore } = stores;
    await taskStore.save(task("t4", TaskState.TASK_STATE_SUBMITTED), alice);
    await taskStore.save(task("t4", TaskState.TASK_STATE_WORKING, "kept"), alice);
    const first = await taskStore.load("t4", alice);
    if (first?.status) first.status.state = TaskState.TASK_STATE_FAILED;
    first?.artifacts.splice(0);
    const again = await taskStore.load("t4", alice);
    expect(again?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(JSON.stringify(again?.artifacts)).toContain("kept");
  });

  it("progress saved and not yet written is on disk once the store closes", async () => {
    const { taskStore } = stores;
    await taskStore.save(task("t5", TaskState.TASK_STATE_SUBMITTED), alice);
    await taskStore.save(task("t5", TaskState.TASK_STATE_WORKING, "last words"), alice);
    await stores.close();
    expect(onDisk("t5")?.state).toBe("TASK_STATE_WORKING");
    expect(onDisk("t5")?.artifacts).toContain("last words");
    // afterEach closes again: reopen so that it has something to close.
    stores = await openTaskStores({
      store: { type: "sqlite", path: ".claude/claude-a2a.db", retainDays: 0 },
      cwd,
      logger: pino({ level: "silent" }),
    });
  });

  it("progress is written shortly after, without any other save", async () => {
    const { taskStore } = stores;
    await taskStore.save(task("t6", TaskState.TASK_STATE_SUBMITTED), alice);
    await taskStore.save(task("t6", TaskState.TASK_STATE_WORKING, "soon"), alice);
    await expect.poll(() => onDisk("t6")?.state, { timeout: 5_000 }).toBe("TASK_STATE_WORKING");
  });
});

describe("SQLite push-config store: cached reads", () => {
  it("a config registered or deleted is seen by the next read", async () => {
    const { pushStore } = stores;
    expect(await pushStore.load("t7", alice)).toEqual([]);
    await pushStore.save("t7", alice, {
      id: "c1",
      taskId: "t7",
      url: "https://example.com/hook",
    } as never);
    expect((await pushStore.load("t7", alice)).map((c) => c.id)).toEqual(["c1"]);
    expect(await pushStore.load("t7", bob)).toEqual([]);
    await pushStore.delete("t7", alice, "c1");
    expect(await pushStore.load("t7", alice)).toEqual([]);
  });
});

describe("write-behind store: progress batching", () => {
  it("progress saves in a row are one write of the latest version, within PROGRESS_DELAY_MS", async () => {
    /** Per write: the artifacts of each task written. */
    const written: string[][] = [];
    const store = new WriteBehindTaskStore({
      inner: stores.taskStore,
      ownerOf: () => "alice",
      logger: pino({ level: "silent" }),
      writeBatch: (writes) => {
        written.push(writes.map((w) => JSON.stringify(w.task.artifacts ?? [])));
        return Promise.resolve();
      },
    });
    await store.save(task("t8", TaskState.TASK_STATE_SUBMITTED), alice);
    expect(written).toEqual([["[]"]]);
    // A long answer's appends, one per flush: none of them is a write of its own.
    for (const text of ["a", "ab", "abc"])
      await store.save(task("t8", TaskState.TASK_STATE_WORKING, text), alice);
    expect(written).toHaveLength(1);
    await expect.poll(() => written.length, { timeout: PROGRESS_DELAY_MS + 5_000 }).toBe(2);
    expect(written[1]).toHaveLength(1);
    expect(written[1]?.[0]).toContain('"abc"');
  });
});
