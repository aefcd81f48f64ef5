import type { BackgroundTask } from "../../claude/index.js";
import type { ConversationKey } from "../../identity/conversation.js";
import type { TaskRef } from "../../contract/messages.js";
import type { TaskPhase } from "../task/lifecycle.js";

/** What ownership needs to know of a task (a `ServerTask`; tests use plain objects). */
export interface OwnedTask {
  readonly ref: TaskRef;
  /** Its caller's conversation (`conversation.ts`). */
  readonly conversation: ConversationKey;
  readonly phase: TaskPhase;
}

/** How a task the server still runs shows to the request guard: at work, or parked on a prompt. */
export type LiveState = "working" | "parked";

export function liveState(phase: TaskPhase | undefined): LiveState | undefined {
  if (phase === undefined || phase.name === "ended") return undefined;
  return phase.name === "parked" ? "parked" : "working";
}

/**
 * Which task a piece of Claude work belongs to, so what it asks or does reaches that task and
 * never "whoever holds the context": the tasks this server runs by task id, the runs each owns by
 * run id (a late prompt or file change of a run still reaches its task), and the background work
 * each run launched by background task id, until the wake it causes begins. Bookkeeping only:
 * the executor acts on what it finds.
 */
export class RunOwnership<T extends OwnedTask> {
  private readonly tasks = new Map<string, T>();
  /** run id → the task that owns the run. */
  private readonly owners = new Map<string, T>();
  /** Background task id → the task whose run launched it, until the wake it causes begins. */
  private readonly launchedBy = new Map<string, T>();

  /** A task runs on this server from now on. */
  add(task: T): void {
    this.tasks.set(task.ref.taskId, task);
  }

  /** The task is over; a newer task of the same id (none today) would stay. */
  remove(task: T): void {
    if (this.tasks.get(task.ref.taskId) === task) this.tasks.delete(task.ref.taskId);
  }

  task(taskId: string): T | undefined {
    return this.tasks.get(taskId);
  }

  /** Every task on this server now. */
  all(): T[] {
    return [...this.tasks.values()];
  }

  /** True while a task has not ended on this server (queued, starting, running or parked). */
  isActive(taskId: string): boolean {
    return liveState(this.tasks.get(taskId)?.phase) !== undefined;
  }

  liveState(taskId: string): LiveState | undefined {
    return liveState(this.tasks.get(taskId)?.phase);
  }

  /** From now on, prompts and file changes of `runId` reach `task`. */
  own(runId: string, task: T): void {
    this.owners.set(runId, task);
  }

  disown(runId: string): void {
    this.owners.delete(runId);
  }

  /** The task owning a run; none for a run nobody owns, or no run at all. */
  ofRun(runId: string | undefined): T | undefined {
    return runId === undefined ? undefined : this.owners.get(runId);
  }

  /**
   * Background work started or attributed to its run: the task that launched it, if this is news
   * (work in the foreground, ambient work, work of no run or of a run nobody owns has none).
   */
  launched(
    work: Pick<BackgroundTask, "taskId" | "runId" | "backgrounded" | "ambient">,
  ): T | undefined {
    if (!work.backgrounded || work.ambient || work.runId === undefined) return undefined;
    const owner = this.owners.get(work.runId);
    if (owner === undefined || this.launchedBy.has(work.taskId)) return undefined;
    this.launchedBy.set(work.taskId, owner);
    return owner;
  }

  /** The task whose run launched a piece of background work, while its wake has not begun. */
  launcher(backgroundTaskId: string): T | undefined {
    return this.launchedBy.get(backgroundTaskId);
  }

  /** Its wake began (or will never come): forgotten; returns the task that launched it. */
  consume(backgroundTaskId: string): T | undefined {
    const owner = this.launchedBy.get(backgroundTaskId);
    this.launchedBy.delete(backgroundTaskId);
    return owner;
  }

  /** A closed session wakes no more: nothing of its conversation's background work is kept. */
  forget(conversation: ConversationKey): void {
    for (const [backgroundTaskId, owner] of this.launchedBy) {
      if (owner.conversation === conversation) this.launchedBy.delete(backgroundTaskId);
    }
  }

  /** How many launches it keeps for wakes (tests: it must not grow without bound). */
  get retainedLaunches(): number {
    return this.launchedBy.size;
  }
}
