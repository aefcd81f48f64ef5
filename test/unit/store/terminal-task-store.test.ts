import { TaskState, type Task } from "@a2a-js/sdk";
import { InMemoryTaskStore, ServerCallContext, type TaskStore } from "@a2a-js/sdk/server";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { RecentSet, TerminalTaskStore } from "../../../src/store/terminal-task-store.js";

const context = new ServerCallContext();
const task = (state: TaskState, note = ""): Task => ({
  id: "t-1",
  contextId: "c-1",
  status: { state, message: undefined, timestamp: "" },
  artifacts: [],
  history: [],
  metadata: { note },
});

describe("TerminalTaskStore", () => {
  it("keeps a terminal task terminal: later saves of it are dropped", async () => {
    const store = new TerminalTaskStore(new InMemoryTaskStore(), pino({ level: "silent" }));
    await store.save(task(TaskState.TASK_STATE_INPUT_REQUIRED), context);
    await store.save(task(TaskState.TASK_STATE_CANCELED, "canceled"), context);
    await store.save(task(TaskState.TASK_STATE_INPUT_REQUIRED, "stale"), context);
    await store.save(task(TaskState.TASK_STATE_COMPLETED, "second terminal"), context);
    const stored = await store.load("t-1", context);
    expect(stored?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(stored?.metadata).toEqual({ note: "canceled" });
  });

  it("amends a terminal task (a late run's usage), after the saves already started", async () => {
    const store = new TerminalTaskStore(new InMemoryTaskStore(), pino({ level: "silent" }));
    void store.save(task(TaskState.TASK_STATE_CANCELED, "canceled"), context);
    await store.amend("t-1", context, (t) => ({ ...t, metadata: { ...t.metadata, usage: 1 } }));
    const stored = await store.load("t-1", context);
    expect(stored?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(stored?.metadata).toEqual({ note: "canceled", usage: 1 });
    // Still terminal for every other save.
    await store.save(task(TaskState.TASK_STATE_WORKING, "stale"), context);
    expect((await store.load("t-1", context))?.metadata).toEqual({ note: "canceled", usage: 1 });
    // An unknown task: nothing is written.
    await store.amend("t-2", context, (t) => t);
    expect(await store.load("t-2", context)).toBeUndefined();
  });

  it("learns a task is terminal from a load (a store written by an earlier process)", async () => {
    const inner = new InMemoryTaskStore();
    await inner.save(task(TaskState.TASK_STATE_FAILED, "before restart"), context);
    const store = new TerminalTaskStore(inner, pino({ level: "silent" }));
    await store.load("t-1", context);
    await store.save(task(TaskState.TASK_STATE_WORKING), context);
    expect((await store.load("t-1", context))?.metadata).toEqual({ note: "before restart" });
  });

  it("serializes saves of one task, so a slow save cannot land after a terminal one", async () => {
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const inner = new InMemoryTaskStore();
    const order: string[] = [];
    const gated: TaskStore = {
      save: async (t, c) => {
        if (t.metadata?.note === "slow") await slow;
        order.push(String(t.metadata?.note));
        await inner.save(t, c);
      },
      load: (id, c) => inner.load(id, c),
      list: (p, c) => inner.list(p, c),
    };
    const store = new TerminalTaskStore(gated, pino({ level: "silent" }));
    const first = store.save(task(TaskState.TASK_STATE_WORKING, "slow"), context);
    const second = store.save(task(TaskState.TASK_STATE_CANCELED, "canceled"), context);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(["slow", "canceled"]);
    expect((await store.load("t-1", context))?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it("drain() waits for every save started so far (shutdown, before the store closes)", async () => {
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const inner = new InMemoryTaskStore();
    const gated: TaskStore = {
      save: async (t, c) => {
        await slow;
        await inner.save(t, c);
      },
      load: (id, c) => inner.load(id, c),
      list: (p, c) => inner.list(p, c),
    };
    const store = new TerminalTaskStore(gated, pino({ level: "silent" }));
    void store.save(task(TaskState.TASK_STATE_FAILED, "last words"), context);
    let drained = false;
    const draining = store.drain().then(() => (drained = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    release();
    await draining;
    expect((await inner.load("t-1", context))?.metadata).toEqual({ note: "last words" });
  });

  it("remembers only the most recent terminal ids (bounded on a long-running server)", async () => {
    const store = new TerminalTaskStore(new InMemoryTaskStore(), pino({ level: "silent" }), 2);
    const ended = (id: string, note = ""): Task => ({
      ...task(TaskState.TASK_STATE_COMPLETED, note),
      id,
    });
    for (const id of ["a", "b", "c"]) await store.save(ended(id), context);
    // "c" and "b" are remembered: a late write to them is still dropped.
    await store.save(
      { ...ended("c", "stale"), status: task(TaskState.TASK_STATE_WORKING).status },
      context,
    );
    expect((await store.load("c", context))?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const recent = new RecentSet(2);
    for (const id of ["a", "b", "a", "c"]) recent.add(id);
    expect([recent.has("a"), recent.has("b"), recent.has("c"), recent.size]).toEqual([
      true,
      false,
      true,
      2,
    ]);
  });
});
