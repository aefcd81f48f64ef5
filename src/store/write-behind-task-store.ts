import { TaskState, type Task } from "@a2a-js/sdk";
import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import { isTerminalState } from "../contract/task-states.js";
import { copyTask } from "./copy-task.js";

type ListParams = Parameters<TaskStore["list"]>[0];
type ListResult = Awaited<ReturnType<TaskStore["list"]>>;

/** One task to write, with the call context that scopes its row. */
export interface PendingWrite {
  readonly task: Task;
  readonly context: ServerCallContext;
}

export interface WriteBehindOptions {
  /** The store the tasks are read from and listed by (the database). */
  readonly inner: TaskStore;
  /** Writes these tasks, in one transaction where the database allows it. */
  readonly writeBatch: (writes: readonly PendingWrite[]) => Promise<void>;
  /** The owner a context's rows belong to (the database store's own resolver). */
  readonly ownerOf: (context: ServerCallContext) => string;
  readonly logger: Logger;
  /** How long a progress write may wait for others to join it (ms); default `PROGRESS_DELAY_MS`. */
  readonly delayMs?: number;
  /** How many written, still unfinished tasks stay cached for the next event's read. */
  readonly maxCached?: number;
}

interface Entry {
  /** This server's latest version of the task: a private copy nobody else mutates. */
  task: Task;
  context: ServerCallContext;
  /** Saved here, not yet written to the database. */
  dirty: boolean;
  /** Saves waiting until this task's row holds what they saved. */
  waiters: { resolve(): void; reject(err: unknown): void }[];
}

/**
 * How long a task's progress (working, text chunks) may wait to be written (ms), the latest
 * version only. Every read of this server answers from memory meanwhile, so the row serves only a
 * restart, which fails a task that was running anyway. A long answer saves its task once per
 * artifact append (`streaming.flushMs`, 50 ms): at 50 ms here each of those was a commit of the
 * whole task, its text included (about a sixth of the server's CPU through a 5,000-delta answer,
 * docs/BENCHMARKS.md); a second, as the replay log's live events (`LIVE_EVENTS_DELAY_MS`), makes
 * it one or two per answer.
 */
export const PROGRESS_DELAY_MS = 1_000;

/** States a client acts on (or that end a task): on disk before the save that set them returns. */
function mustBeWritten(task: Task): boolean {
  const state = task.status?.state;
  return (
    isTerminalState(state) ||
    state === TaskState.TASK_STATE_INPUT_REQUIRED ||
    state === TaskState.TASK_STATE_AUTH_REQUIRED
  );
}

/**
 * The task store between the SDK's request handler and the database, for one server that alone
 * writes its tasks (SQLite). The SDK's result manager loads the task, applies one event and saves
 * the whole task again for every event of a turn (about seven for a short reply), and each save
 * was a synchronous upsert on the event loop (a profile of a warm turn: 40 % of the server's CPU,
 * with writes stalling for milliseconds on a busy disk). Here:
 *
 * - every save is seen at once by every read of this server: `load` answers from the latest
 *   version saved (a copy), and `list` first writes what is pending, so a client that reads a
 *   task right after an event sees that event;
 * - a task's first save (its creation), and every save that makes it input-required,
 *   auth-required or terminal, returns only once its row is written: what a client may act on,
 *   or what must survive a restart, is on disk before the event reaches the client, as before;
 * - progress in between (working, artifact chunks) is written at most `delayMs` later, the
 *   latest version only, with every other pending task in one transaction. A `kill -9` can lose
 *   that much progress of a running task, which restart recovery ends FAILED anyway; the timer
 *   does not hold the process up (shutdown writes what is pending).
 *
 * `flush()` writes everything pending (shutdown, before the database closes).
 */
export class WriteBehindTaskStore implements TaskStore {
  private readonly entries = new Map<string, Entry>();
  private readonly delayMs: number;
  private readonly maxCached: number;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  /** The flush under way, which the next one waits for (writes of a task stay in order). */
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly o: WriteBehindOptions) {
    this.delayMs = o.delayMs ?? PROGRESS_DELAY_MS;
    this.maxCached = o.maxCached ?? 1_000;
  }

  private keyOf(taskId: string, context: ServerCallContext): string {
    return `${context.tenant ?? ""}\u0000${this.o.ownerOf(context)}\u0000${taskId}`;
  }

  save(task: Task, context: ServerCallContext): Promise<void> {
    const key = this.keyOf(task.id, context);
    const known = this.entries.get(key);
    const entry: Entry = {
      task: copyTask(task),
      context,
      dirty: true,
      waiters: known?.waiters ?? [],
    };
    // Re-inserted: the map's order is least recently saved first, for eviction.
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (known !== undefined && !mustBeWritten(task)) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        void this.flush();
      }, this.delayMs).unref();
      return Promise.resolve();
    }
    const written = new Promise<void>((resolve, reject) => entry.waiters.push({ resolve, reject }));
    this.immediate ??= setImmediate(() => {
      this.immediate = undefined;
      void this.flush();
    });
    return written;
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const entry = this.entries.get(this.keyOf(taskId, context));
    if (entry !== undefined) return copyTask(entry.task);
    return this.o.inner.load(taskId, context);
  }

  async list(params: ListParams, context: ServerCallContext): Promise<ListResult> {
    if (this.hasDirty()) await this.flush();
    return this.o.inner.list(params, context);
  }

  private hasDirty(): boolean {
    for (const entry of this.entries.values()) if (entry.dirty) return true;
    return false;
  }

  /** Writes every pending save; resolves once they are written (or have failed and been logged). */
  flush(): Promise<void> {
    const next = this.flushing.then(() => this.writePending());
    this.flushing = next;
    return next;
  }

  private async writePending(): Promise<void> {
    const batch = [...this.entries].filter(([, e]) => e.dirty);
    if (batch.length === 0) return;
    const waiters = batch.flatMap(([, e]) => e.waiters.splice(0));
    for (const [, e] of batch) e.dirty = false;
    try {
      await this.o.writeBatch(batch.map(([, e]) => ({ task: e.task, context: e.context })));
    } catch (err) {
      // Still pending, unless saved again meanwhile (the newer version is then the one to write).
      for (const [key, e] of batch) if (this.entries.get(key) === e) e.dirty = true;
      this.o.logger.error({ err, tasks: batch.length }, "store write failed");
      for (const w of waiters) w.reject(err);
      return;
    }
    for (const [key, e] of batch) {
      // A finished task is read from the database from now on; nothing more will change it here.
      if (this.entries.get(key) === e && isTerminalState(e.task.status?.state)) {
        this.entries.delete(key);
      }
    }
    this.evict();
    for (const w of waiters) w.resolve();
  }

  /** Forgets the least recently saved written tasks beyond `maxCached`. */
  private evict(): void {
    let excess = this.entries.size - this.maxCached;
    for (const [key, e] of this.entries) {
      if (excess <= 0) return;
      if (e.dirty || e.waiters.length > 0) continue;
      this.entries.delete(key);
      excess--;
    }
  }
}
