import type { TaskStore } from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import { EveryOwnerListing, type EveryOwnerTasks } from "./every-owner.js";
import { ExchangedHistoryStore } from "./exchanged-history-store.js";
import { FaultTellingStore } from "./fault-telling-store.js";
import { TerminalTaskStore } from "./terminal-task-store.js";

/** One layer of the task store: given the store below it, the store over it. */
export type StoreLayer = (inner: TaskStore) => TaskStore;

/**
 * `layers` around `base` in list order: the first wraps `base`, the last is the outermost, the
 * one callers see. An unset entry (a layer that is off) is left out. Pure.
 */
export function wrapped(
  base: TaskStore,
  layers: readonly (StoreLayer | undefined | false)[],
): TaskStore {
  return layers.reduce<TaskStore>((inner, layer) => (layer ? layer(inner) : inner), base);
}

export interface TaskStoreStackOptions {
  /**
   * The backend's own store: SQLite's table under its write-behind store (`sqlite-stores.ts`),
   * PostgreSQL's the SDK's with its saves watched, memory's indexed by owner.
   */
  readonly backend: TaskStore;
  /** Every caller's tasks, for an operator's ListTasks. */
  readonly everyOwner: EveryOwnerTasks;
  readonly logger: Logger;
  /** A database: a failed write is told clearly (memory: nothing to tell). */
  readonly tellFaults: boolean;
  /** A fleet instance's owner row for each unfinished task it runs (`src/fleet/`). */
  readonly owned?: StoreLayer | undefined;
  /**
   * The task's rules over the store (an ended task stays ended, the history as exchanged): the
   * server's stack has them; a tool reading the store as it is (tests, benchmarks) leaves them off.
   */
  readonly taskRules: boolean;
}

export interface TaskStoreStack {
  readonly taskStore: TaskStore;
  /** Its terminal layer, whose pending writes the server waits for at shutdown (taskRules). */
  readonly terminal?: TerminalTaskStore;
}

/**
 * The server's task store, from one list: innermost first, the order the layers wrap the
 * backend (docs/ARCHITECTURE.md, "The request path in one picture"). Over all of it, the SDK's
 * handler sees a task it is creating as not stored yet (`a2a/handler/fresh-tasks.ts`).
 */
export function taskStoreStack(o: TaskStoreStackOptions): TaskStoreStack {
  const held: { terminal?: TerminalTaskStore } = {};
  const taskStore = wrapped(o.backend, [
    // A failed write said clearly (its text, `/healthz` degraded).
    o.tellFaults && ((s) => new FaultTellingStore(s, o.logger)),
    // An operator's ListTasks lists every caller's tasks, each with its owner.
    (s) => new EveryOwnerListing(s, o.everyOwner),
    // Before a fleet instance's task is first saved unfinished, its owner row names the instance.
    o.owned,
    // Nothing changes a task that has ended; a late save is kept from overwriting it.
    o.taskRules && ((s) => (held.terminal = new TerminalTaskStore(s, o.logger))),
    // The history as the client and the task exchanged it.
    o.taskRules && ((s) => new ExchangedHistoryStore(s)),
  ]);
  return { taskStore, ...held };
}
