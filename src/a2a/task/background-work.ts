import type { BackgroundTask } from "../../claude/index.js";
import { KIND } from "../contract/messages.js";

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

/** `sleep 2 (b1x2), npm test (b3y4)`: what a waiting task waits for. */
export function describeWork(work: readonly { taskId: string; description: string }[]): string {
  return work.map((w) => (w.description ? `${w.description} (${w.taskId})` : w.taskId)).join(", ");
}

type FinishedWork = Pick<
  BackgroundTask,
  "taskId" | "description" | "status" | "summary" | "stopReason"
>;

/**
 * The status of a finished piece of work: `background_task`, or `background_stopped` when the
 * server stopped it (`sessions.maxBackgroundMs`), whose text says why.
 */
export function finishedStatus(task: FinishedWork): {
  kind: typeof KIND.backgroundTask | typeof KIND.backgroundStopped;
  text: string;
  metadata: Record<string, string>;
} {
  const metadata = { taskId: task.taskId, status: task.status, summary: task.summary ?? "" };
  if (task.stopReason === undefined) {
    return { kind: KIND.backgroundTask, text: finishedText(task), metadata };
  }
  return {
    kind: KIND.backgroundStopped,
    text: `Background task ${describeWork([task])} stopped: ${task.stopReason}.`,
    metadata: { ...metadata, reason: task.stopReason },
  };
}

/** The `background_task` status text of a finished piece of work. */
export function finishedText(task: Omit<FinishedWork, "stopReason">): string {
  const summary = task.summary ? `: ${task.summary}` : "";
  return `Background task ${describeWork([task])} ${task.status}${summary}`;
}

/** The `background_wait` status text. */
export function waitText(running: readonly { taskId: string; description: string }[]): string {
  return running.length > 0
    ? `Waiting for background work to finish: ${describeWork(running)}.`
    : "Waiting for Claude to take up the background work that finished.";
}

/** The `background_timeout` status text. */
export function waitTimeoutText(
  ms: number,
  running: readonly { taskId: string; description: string }[],
): string {
  const left = running.length > 0 ? `; still running: ${describeWork(running)}` : "";
  return `Stopped waiting for background work after ${ms} ms (claude.backgroundWaitTimeoutMs)${left}. What it produces later arrives as a new task in this context.`;
}
