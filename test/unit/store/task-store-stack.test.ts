/** The task store's layers come from one list, wrapped in its order (src/store/task-store-stack.ts). */
import type { Task } from "@a2a-js/sdk";
import { InMemoryTaskStore, ServerCallContext, type TaskStore } from "@a2a-js/sdk/server";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { EveryOwnerListing } from "../../../src/store/every-owner.js";
import { ExchangedHistoryStore } from "../../../src/store/exchanged-history-store.js";
import { FaultTellingStore } from "../../../src/store/fault-telling-store.js";
import { memoryStores } from "../../../src/store/task-stores.js";
import { taskStoreStack, wrapped, type StoreLayer } from "../../../src/store/task-store-stack.js";
import { TerminalTaskStore } from "../../../src/store/terminal-task-store.js";

/** A layer that notes its name when a load goes down through it. */
const noting =
  (name: string, seen: string[]): StoreLayer =>
  (inner) => ({
    save: (task, context) => inner.save(task, context),
    list: (params, context) => inner.list(params, context),
    load: (taskId, context) => {
      seen.push(name);
      return inner.load(taskId, context);
    },
  });

describe("wrapped", () => {
  it.each([
    { layers: [], want: [] },
    { layers: ["a"], want: ["a"] },
    // The last of the list is the outermost: a call goes through it first.
    { layers: ["a", "b", "c"], want: ["c", "b", "a"] },
    { layers: ["a", undefined, "c"], want: ["c", "a"] },
  ])("wraps the base in the order of $layers", async ({ layers, want }) => {
    const seen: string[] = [];
    const store = wrapped(
      new InMemoryTaskStore(),
      layers.map((name) => name !== undefined && noting(name, seen)),
    );
    await store.load("t", new ServerCallContext());
    expect(seen).toEqual(want);
  });
});

/** The classes of a stack, outermost first, read from each layer's `inner`. */
function layersOf(store: TaskStore): string[] {
  const names: string[] = [];
  let at: unknown = store;
  while (typeof at === "object" && at !== null) {
    names.push(at.constructor.name);
    at = (at as { inner?: unknown }).inner;
  }
  return names;
}

describe("taskStoreStack", () => {
  const logger = pino({ level: "silent" });
  const { backend, everyOwner } = memoryStores();

  it("the server's stack: the task's rules over the fleet's owner rows over the store's own layers", () => {
    let below: TaskStore | undefined;
    const owned: StoreLayer = (inner) => {
      below = inner;
      return inner;
    };
    const stack = taskStoreStack({
      backend,
      everyOwner,
      logger,
      tellFaults: true,
      owned,
      taskRules: true,
    });
    expect(stack.taskStore).toBeInstanceOf(ExchangedHistoryStore);
    expect(stack.terminal).toBeInstanceOf(TerminalTaskStore);
    expect(below).toBeInstanceOf(EveryOwnerListing);
    expect(layersOf(stack.taskStore).slice(0, 4)).toEqual([
      "ExchangedHistoryStore",
      "TerminalTaskStore",
      "EveryOwnerListing",
      "FaultTellingStore",
    ]);
  });

  it("without the task's rules or a database: the every-owner listing over the backend", async () => {
    const stack = taskStoreStack({
      backend,
      everyOwner,
      logger,
      tellFaults: false,
      taskRules: false,
    });
    expect(stack.taskStore).toBeInstanceOf(EveryOwnerListing);
    expect(stack.terminal).toBeUndefined();
    expect(layersOf(stack.taskStore)).not.toContain(FaultTellingStore.name);
    const task = {
      id: "t",
      contextId: "c",
      history: [],
      artifacts: [],
      metadata: {},
    } as unknown as Task;
    await stack.taskStore.save(task, new ServerCallContext());
    expect(await backend.load("t", new ServerCallContext())).toMatchObject({ id: "t" });
  });
});
