import type { BackgroundTask } from "../../claude/index.js";
import { OneShot, type Timers } from "../../common/timers.js";
import { BackgroundWork } from "./background-work.js";
import type { TurnPolicy } from "./environment.js";
import type { TaskPhase } from "./lifecycle.js";

/**
 * What a task does once a run of it ended (or a prompt was settled with no run active): stay as
 * it is (a run or a prompt is still under way, or it is not running), complete (no background
 * work is pending), or wait for its background work (`backgroundTasks: "wait"`).
 */
export type SettleFate = "stay" | "complete" | "wait";

export function settleFate(phase: TaskPhase, runActive: boolean, workPending: boolean): SettleFate {
  if (phase.name === "ended" || phase.name === "parked" || runActive) return "stay";
  if (!workPending) return "complete";
  return phase.name === "running" ? "wait" : "stay";
}

/**
 * How one task waits for its background work (docs/tasks.md "Background work"): the work it waits for
 * (`background-work.ts`), none under `backgroundTasks: "detach"`, and the timeout of the wait
 * (`claude.backgroundWaitTimeoutMs`). Like the task's prompts, it never moves the task's phase.
 */
export class BackgroundWait {
  private readonly work = new BackgroundWork();
  private readonly timer: OneShot;

  constructor(
    private readonly policy: Pick<TurnPolicy, "backgroundTasks" | "backgroundWaitTimeoutMs">,
    timers: Timers,
  ) {
    this.timer = new OneShot(timers);
  }

  /** Background work launched by one of its runs; false if the task does not wait for it. */
  track(task: Pick<BackgroundTask, "taskId" | "description">): boolean {
    if (this.policy.backgroundTasks !== "wait") return false;
    return this.work.started(task);
  }

  /** True if it was running: the task says it finished (a duplicate notice is ignored). */
  finished(taskId: string): boolean {
    return this.work.finished(taskId);
  }

  /** Its wake began, or its notification was folded into another turn: true if it was awaited. */
  consumed(taskId: string): boolean {
    return this.work.consumed(taskId);
  }

  get pending(): boolean {
    return this.work.pending;
  }

  /** Still at work, in launch order. */
  running(): { taskId: string; description: string }[] {
    return this.work.running();
  }

  /**
   * The task began to wait: the timeout starts, unless it runs already. `expire` gets the timeout
   * and the work still running when it fires.
   */
  armTimeout(
    expire: (ms: number, running: { taskId: string; description: string }[]) => void,
  ): void {
    if (this.timer.armed) return;
    const ms = this.policy.backgroundWaitTimeoutMs;
    this.timer.arm(ms, () => expire(ms, this.work.running()));
  }

  clearTimeout(): void {
    this.timer.clear();
  }
}
