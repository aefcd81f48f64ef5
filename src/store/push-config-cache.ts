import type { TaskPushNotificationConfig } from "@a2a-js/sdk";
import type { PushNotificationStore, ServerCallContext } from "@a2a-js/sdk/server";
import { copyTask } from "./copy-task.js";

/**
 * The push-notification configs of recently used tasks, in memory, in front of the database store
 * of a server that alone writes it (SQLite): the SDK's handler and our sender read a task's
 * configs for every event it publishes (about seven per short turn, nearly always none), and each
 * read was a query on the event loop. Every write goes through here and drops the task's entry,
 * so a read never misses a config registered or deleted on this server. Entries are copied in and
 * out (copyTask: a caller changing what it read never changes the cache).
 */
export class CachedPushConfigStore implements PushNotificationStore {
  private readonly cached = new Map<string, TaskPushNotificationConfig[]>();
  /** Writes started so far: a read that overlapped one does not cache what it read. */
  private writes = 0;

  constructor(
    private readonly inner: PushNotificationStore,
    private readonly ownerOf: (context: ServerCallContext) => string,
    private readonly capacity = 1_000,
  ) {
    // The optional method exists only when the inner store has it (the sender checks for it).
    if (inner.loadWithMetadata !== undefined) {
      this.loadWithMetadata = (taskId, context) =>
        (inner.loadWithMetadata as NonNullable<PushNotificationStore["loadWithMetadata"]>)(
          taskId,
          context,
        );
    }
  }

  loadWithMetadata?: PushNotificationStore["loadWithMetadata"];

  private keyOf(taskId: string, context: ServerCallContext): string {
    return `${context.tenant ?? ""}\u0000${this.ownerOf(context)}\u0000${taskId}`;
  }

  async save(
    taskId: string,
    context: ServerCallContext,
    config: TaskPushNotificationConfig,
  ): Promise<void> {
    const key = this.keyOf(taskId, context);
    this.writes++;
    this.cached.delete(key);
    try {
      await this.inner.save(taskId, context, config);
    } finally {
      this.cached.delete(key);
    }
  }

  async load(taskId: string, context: ServerCallContext): Promise<TaskPushNotificationConfig[]> {
    const key = this.keyOf(taskId, context);
    const hit = this.cached.get(key);
    if (hit !== undefined) return copyTask(hit);
    const writes = this.writes;
    const configs = await this.inner.load(taskId, context);
    if (writes !== this.writes) return configs;
    this.cached.set(key, copyTask(configs));
    if (this.cached.size > this.capacity) {
      const oldest = this.cached.keys().next();
      if (oldest.done !== true) this.cached.delete(oldest.value);
    }
    return configs;
  }

  async delete(taskId: string, context: ServerCallContext, configId?: string): Promise<void> {
    const key = this.keyOf(taskId, context);
    this.writes++;
    this.cached.delete(key);
    try {
      await this.inner.delete(taskId, context, configId);
    } finally {
      this.cached.delete(key);
    }
  }
}
