import { resolve } from "node:path";
import {
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type TaskStore,
} from "@a2a-js/sdk/server";
import { DatabasePushNotificationStore, DatabaseTaskStore } from "@a2a-js/sdk/server/database";
import type { Kysely } from "kysely";
import { pino, type Logger } from "pino";
import type { Config } from "../config/schema.js";
import { MemoryCallerUsage, migrateCallerUsage, SqlCallerUsage } from "./caller-usage.js";
import { openDatabase, pingDatabase, type Database, type DatabaseSpec } from "./database.js";
import { indexEveryOwner, SqlEveryOwner, type EveryOwnerTasks } from "./every-owner.js";
import { OwnerIndexedStore } from "./memory-every-owner.js";
import { upgradeOwners } from "./owner-upgrade.js";
import { failUnfinishedTasks, type RecoveredUsage } from "./recovery.js";
import { scheduleRetention } from "./retention.js";
import { migrateReplay, SqlReplayBackend } from "./sql-replay-backend.js";
import { underSchemaLock } from "./schema-lock.js";
import { SqliteReplayBackend } from "./sqlite-replay-backend.js";
import { sqliteStores } from "./sqlite-stores.js";
import type { StoreBackend } from "./store-backend.js";
import { ensureTaskIndexes } from "./task-indexes.js";
import { taskStoreStack } from "./task-store-stack.js";
import { TaskTable } from "./task-table.js";
import { watchedReplay, watchedSaves, WriteWatch } from "./write-watch.js";

export type StoreConfig = Config["store"];

/** The task and push-config stores the request handler uses, and their upkeep. */
export interface TaskStores extends StoreBackend {
  readonly type: StoreConfig["type"];
  /**
   * The backend's own store, which `taskStoreStack` wraps (`task-store-stack.ts`): SQLite's
   * write-behind store over its table, PostgreSQL's SDK store, memory's indexed by owner.
   */
  readonly backend: TaskStore;
  /** The backend is a database: its failed writes are told (`FaultTellingStore`). */
  readonly tellFaults: boolean;
  /** The store's layers over the backend, without the task's rules (tests, tools). */
  readonly taskStore: TaskStore;
  /** Tasks the previous server left unfinished, now FAILED (database stores only). */
  readonly recovered: readonly string[];
}

export interface OpenStoresOptions {
  readonly store: StoreConfig;
  /** The workspace: a relative SQLite path and the inbox folders resolve against it. */
  readonly cwd: string;
  readonly logger: Logger;
  /** `server.operators` is set: index the task table for their every-owner reads. */
  readonly operators?: boolean | undefined;
  /**
   * Whether opening fails every unfinished task (the single-server restart recovery; the
   * default). A fleet on PostgreSQL runs its own recovery instead (`src/fleet/recovery.ts`).
   */
  readonly failUnfinished?: boolean;
  /** What the runs of a task failed that way used (else it is failed without `usage`). */
  readonly recoveredUsage?: RecoveredUsage;
  /** Called once the database is open and migrated, before restart recovery (the session map). */
  readonly opened?: (db: Kysely<unknown>, type: "sqlite" | "postgres") => Promise<void>;
}

/** Memory has no write to fail, nothing to log. */
const SILENT = pino({ level: "silent" });

/** Stores in memory (lost at restart): the `memory` type, or a task store a caller supplies. */
export function memoryStores(taskStore: TaskStore = new InMemoryTaskStore()): TaskStores {
  const indexed = new OwnerIndexedStore(taskStore);
  const own = { backend: indexed, everyOwner: indexed, tellFaults: false };
  return {
    type: "memory",
    ...own,
    taskStore: taskStoreStack({ ...own, logger: SILENT, taskRules: false }).taskStore,
    pushStore: new InMemoryPushNotificationStore(),
    usage: new MemoryCallerUsage(),
    recovered: [],
    countByState: () => Promise.resolve(undefined),
    ping: () => Promise.resolve(),
    writeFaults: () => [],
    close: () => Promise.resolve(),
  };
}

/** Where the database of a config is, or undefined for the memory store. Pure. */
export function databaseSpec(store: StoreConfig, cwd: string): DatabaseSpec | undefined {
  switch (store.type) {
    case "sqlite":
      return { type: "sqlite", file: resolve(cwd, store.path) };
    case "postgres":
      return { type: "postgres", url: store.url };
    case "memory":
      return undefined;
  }
}

/**
 * Opens the configured store: migrates it to the SDK's schema (and the caller-usage tables to
 * theirs), fails the tasks a previous
 * server left unfinished, prunes expired ones, and schedules the daily pruning.
 */
export async function openTaskStores(o: OpenStoresOptions): Promise<TaskStores> {
  const spec = databaseSpec(o.store, o.cwd);
  if (spec === undefined || o.store.type === "memory") return memoryStores();
  let database: Database;
  try {
    database = await openDatabase(spec);
  } catch (err) {
    const where = spec.type === "sqlite" ? spec.file : "the configured URL";
    throw new Error(
      `Cannot open the ${spec.type} task store at ${where}: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
  const { db } = database;
  try {
    await underSchemaLock(db, database.type, async (locked) => {
      await ensureTaskIndexes(locked);
      await upgradeOwners(locked, o.logger);
      await migrateCallerUsage(locked);
      await migrateReplay(locked);
      if (o.operators === true) await indexEveryOwner(locked);
    });
    await o.opened?.(db, database.type);
    const recovered =
      o.failUnfinished === false
        ? []
        : await failUnfinishedTasks(db, o.logger, undefined, o.recoveredUsage);
    const retention = scheduleRetention({
      db,
      cwd: o.cwd,
      retainDays: o.store.retainDays,
      logger: o.logger,
    });
    await retention.first;
    o.logger.info({ store: spec.type, location: database.location }, "task store open");
    const watch = new WriteWatch();
    const stores =
      database.type === "sqlite"
        ? sqliteStores(db, database.statements, o.logger, watch)
        : {
            taskStore: watchedSaves(new DatabaseTaskStore(db), watch),
            pushStore: new DatabasePushNotificationStore(db),
            flush: () => Promise.resolve(),
          };
    // An operator's list reads the table itself: progress written behind goes to it first.
    const everyOwner = flushedFirst(new SqlEveryOwner(db, o.logger), stores.flush);
    const own = { backend: stores.taskStore, everyOwner, tellFaults: true };
    return {
      type: spec.type,
      ...own,
      taskStore: taskStoreStack({ ...own, logger: o.logger, taskRules: false }).taskStore,
      pushStore: stores.pushStore,
      usage: new SqlCallerUsage(db),
      replayBackend: watchedReplay(
        database.type === "sqlite"
          ? new SqliteReplayBackend(db, database.statements)
          : new SqlReplayBackend(db),
        watch,
      ),
      recovered,
      countByState: () => new TaskTable(db).countByState(),
      ping: () => pingDatabase(db),
      writeFaults: () => watch.faults(),
      close: async () => {
        retention.stop();
        // Progress saved but not yet written goes to the database before it closes.
        await stores.flush();
        await db.destroy();
      },
    };
  } catch (err) {
    await db.destroy();
    throw err;
  }
}

/** `tasks`, whose every-owner list first writes what is pending (`flush`). */
function flushedFirst(tasks: EveryOwnerTasks, flush: () => Promise<void>): EveryOwnerTasks {
  return {
    ownerOf: (taskId, tenant) => tasks.ownerOf(taskId, tenant),
    listEveryOwner: async (params, tenant) => {
      await flush();
      return tasks.listEveryOwner(params, tenant);
    },
  };
}
