import type { PushNotificationStore, TaskStore } from "@a2a-js/sdk/server";
import { DatabasePushNotificationStore } from "@a2a-js/sdk/server/database";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { CachedPushConfigStore } from "./push-config-cache.js";
import { ownerOf, SqliteTaskStore } from "./sqlite-task-list.js";
import type { Statements } from "./statement-cache.js";
import { WriteBehindTaskStore } from "./write-behind-task-store.js";
import { WriteWatch } from "./write-watch.js";

/**
 * The stores of a SQLite database, which this server alone writes: tasks through the write-behind
 * store (reads see every save at once; progress is written in batches), push configs through a
 * cache. PostgreSQL, which several servers may share, keeps the SDK's stores as they are.
 */
export function sqliteStores(
  db: Kysely<unknown>,
  statements: Statements,
  logger: Logger,
  watch: WriteWatch = new WriteWatch(),
): { taskStore: TaskStore; pushStore: PushNotificationStore; flush: () => Promise<void> } {
  const inner = new SqliteTaskStore(db, statements, logger);
  const taskStore = new WriteBehindTaskStore({
    inner,
    ownerOf,
    logger: logger.child({ component: "store" }),
    // One transaction, one commit, for every task pending at that moment.
    // Watched here, where rows are written (a save of progress returns before).
    writeBatch: (writes) => watch.watch("tasks", () => inner.saveAll(writes)),
  });
  return {
    taskStore,
    pushStore: new CachedPushConfigStore(new DatabasePushNotificationStore(db), ownerOf),
    flush: () => taskStore.flush(),
  };
}
