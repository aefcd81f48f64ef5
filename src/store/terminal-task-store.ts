import type { Task } from "@a2a-js/sdk";
import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import { isTerminalState } from "../contract/task-states.js";

type ListParams = Parameters<TaskStore["list"]>[0];
type ListResult = Awaited<ReturnType<TaskStore["list"]>>;

/**
 * A task store in which a terminal task stays terminal. The SDK writes tasks from several places
 * with no common lock: the request handler appends an answer to a task's history and saves the
 * task it loaded before (over a CANCELED written meanwhile), and its result manager accepts
 * artifacts on a terminal task. Once a task's stored state is terminal, every later save of it
 * is dropped here. Saves of one task are serialized, so the check and the write it guards are
 * one step even when the store below is asynchronous.
 */
export class TerminalTaskStore implements TaskStore {
  /**
   * Ids of tasks whose stored state is terminal (seen saved or loaded), the most recent ones
   * only: the writes this guards race a task's end by moments, and a server that runs for months
   * must not keep every id it ever finished.
   */
  private readonly final: RecentSet;
  /** The last pending save of each task, which the next one waits for. */
  private readonly pending = new Map<string, Promise<void>>();

  constructor(
    private readonly inner: TaskStore,
    private readonly logger: Logger,
    /** How many terminal ids are remembered. */
    remember = 10_000,
  ) {
    this.final = new RecentSet(remember);
  }

  save(task: Task, context: ServerCallContext): Promise<void> {
    const previous = this.pending.get(task.id) ?? Promise.resolve();
    const next = previous.then(() => this.saveNow(task, context));
    const settled = next.catch(() => undefined);
    this.pending.set(task.id, settled);
    void settled.then(() => {
      if (this.pending.get(task.id) === settled) this.pending.delete(task.id);
    });
    return next;
  }

  private async saveNow(task: Task, context: ServerCallContext): Promise<void> {
    if (this.final.has(task.id)) {
      this.logger.debug({ taskId: task.id }, "write to a terminal task dropped");
      return;
    }
    await this.inner.save(task, context);
    if (isTerminalState(task.status?.state)) this.final.add(task.id);
  }

  /**
   * Changes a stored task, terminal or not, after every save of it started so far: the one
   * write to a terminal task that goes through (what a run that outlived its task cost, which
   * its result reports after the task ended). Nothing when the task is not stored.
   */
  amend(taskId: string, context: ServerCallContext, change: (task: Task) => Task): Promise<void> {
    const previous = this.pending.get(taskId) ?? Promise.resolve();
    const next = previous.then(async () => {
      const task = await this.inner.load(taskId, context);
      if (task !== undefined) await this.inner.save(change(task), context);
    });
    const settled = next.catch(() => undefined);
    this.pending.set(taskId, settled);
    void settled.then(() => {
      if (this.pending.get(taskId) === settled) this.pending.delete(taskId);
    });
    return next;
  }

  /** Resolves when every save started so far has settled (shutdown, before the store closes). */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending.values()]);
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const task = await this.inner.load(taskId, context);
    if (task !== undefined && isTerminalState(task.status?.state)) this.final.add(task.id);
    return task;
  }

  list(params: ListParams, context: ServerCallContext): Promise<ListResult> {
    return this.inner.list(params, context);
  }
}

/** A set that forgets its oldest members beyond `capacity`. */
export class RecentSet {
  private readonly members = new Set<string>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.members.size;
  }

  has(value: string): boolean {
    return this.members.has(value);
  }

  add(value: string): void {
    this.members.delete(value);
    this.members.add(value);
    if (this.members.size <= this.capacity) return;
    const oldest = this.members.values().next();
    if (oldest.done !== true) this.members.delete(oldest.value);
  }
}
