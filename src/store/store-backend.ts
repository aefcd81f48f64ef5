import type { PushNotificationStore, TaskStore } from "@a2a-js/sdk/server";
import type { CallerUsageStore } from "./caller-usage.js";
import type { EveryOwnerTasks } from "./every-owner.js";
import type { ReplayBackend } from "./kept-events.js";
import type { WriteFault } from "./write-watch.js";

/**
 * What a store backend owes the server (memory, SQLite and PostgreSQL give it; a new one gives
 * the same): the four interfaces the request path reads, and the upkeep the server calls.
 * `openTaskStores` (task-stores.ts) opens one from `store.*`; the shared case suite
 * (`test/support/store-cases.ts`) holds each to the same behaviour. docs/ARCHITECTURE.md
 * "Where to add … a store" says the steps.
 *
 * A backend also keeps our own tables, outside this interface because they open on their own:
 * the conversation map (`open-session-map.ts`, in `openTaskStores`' `opened` step, before
 * restart recovery reads it) and the schedules' firing rows (`openFiringRows`, on a connection of
 * their own). A database backend keeps them in its database; memory in a SQLite file of theirs.
 * The same suite runs both as case groups on every backend.
 */
export interface StoreBackend {
  /** The SDK's task store: a caller's tasks, scoped by tenant and owner. */
  readonly taskStore: TaskStore;
  /** The SDK's push-config store. */
  readonly pushStore: PushNotificationStore;
  /** Every caller's tasks, for the operator role (`taskStore` lists them for its ListTasks). */
  readonly everyOwner: EveryOwnerTasks;
  /** What per-caller limits count (task starts, spend per day), in the same database. */
  readonly usage: CallerUsageStore;
  /** Where numbered events are kept for replay; unset when the backend keeps nothing (memory). */
  readonly replayBackend?: ReplayBackend;
  /** Stored tasks by state, every caller's; undefined when the store cannot list them all. */
  countByState(): Promise<Record<string, number> | undefined>;
  /** Throws when the store does not answer. */
  ping(): Promise<void>;
  /** Parts of the store whose last write failed (`/healthz` says `degraded`). */
  writeFaults(): readonly WriteFault[];
  /** Stops the daily pruning and closes the connection. */
  close(): Promise<void>;
}
