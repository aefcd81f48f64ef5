import type { BackgroundTask } from "../../claude/index.js";

interface Entry {
  readonly taskId: string;
  readonly description: string;
  /** running: still at work; finished: done, but the wake it causes has not started yet. */
  state: "running" | "finished";
}

/**
 * The background work one A2A task started (a background Bash, a background subagent), from its
 * launch until the wake its completion causes has begun (or was folded into another turn): the
 * task is not done while any of it is pending. Pure bookkeeping; the task decides what to do.
 */
export class BackgroundWork {
  private readonly entries = new Map<string, Entry>();

  /** True if the task had not seen it yet. */
  started(task: Pick<BackgroundTask, "taskId" | "description">): boolean {
    if (this.entries.has(task.taskId)) return false;
    this.entries.set(task.taskId, {
      taskId: task.taskId,
      description: task.description,
      state: "running",
    });
    return true;
  }

  /** True if it was running (a duplicate notice is ignored). */
  finished(taskId: string): boolean {
    const entry = this.entries.get(taskId);
    if (entry?.state !== "running") return false;
    entry.state = "finished";
    return true;
  }

  /** Its wake began (or its notification was folded into a turn): nothing more to wait for. */
  consumed(taskId: string): boolean {
    return this.entries.delete(taskId);
  }

  get pending(): boolean {
    return this.entries.size > 0;
  }

  /** Still at work, in launch order. */
  running(): { taskId: string; description: string }[] {
    return [...this.entries.values()]
      .filter((e) => e.state === "running")
      .map(({ taskId, description }) => ({ taskId, description }));
  }
}
