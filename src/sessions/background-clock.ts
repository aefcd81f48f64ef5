/**
 * One session's `sessions.maxBackgroundMs` clock: started, stopped or kept as its activity changes
 * (`backgroundClock` decides), and when it runs out the session's background work is stopped and
 * no longer keeps the session busy.
 */
import type { Logger } from "pino";
import type { BackgroundTask } from "../claude/index.js";
import type { ConversationKey } from "../identity/conversation.js";
import type { Timers } from "../common/timers.js";
import { backgroundClock, backgroundLimitReason } from "./background-limit.js";

/** What the clock reads of a session, and the one thing it does to it. */
export interface BackgroundWork {
  backgroundTasks(): readonly Pick<BackgroundTask, "taskId">[];
  readonly foregroundActive: boolean;
  stopBackgroundTask(taskId: string, reason?: string): Promise<void>;
}

export interface BackgroundClockOptions {
  readonly key: ConversationKey;
  readonly session: BackgroundWork;
  /** `sessions.maxBackgroundMs`; 0: the clock never runs. */
  readonly limitMs: number;
  readonly timers: Timers;
  readonly logger: Logger;
  /** The work has been stopped: the session may now be idle. */
  readonly onExpired: () => void;
}

export class BackgroundClock {
  private timer: unknown;
  private stoppedWork = false;

  constructor(private readonly options: BackgroundClockOptions) {}

  /** Its background work ran out of time and was stopped: it no longer keeps the session busy. */
  get expired(): boolean {
    return this.stoppedWork;
  }

  get armed(): boolean {
    return this.timer !== undefined;
  }

  /** The session's activity changed (a run, a status, background work started or ended). */
  update(): void {
    const { limitMs, session } = this.options;
    if (limitMs <= 0) return;
    const activity = {
      background: session.backgroundTasks().length,
      foreground: session.foregroundActive,
    };
    // New work, or none left: a stop the limit made is behind it.
    if (activity.foreground || activity.background === 0) this.stoppedWork = false;
    switch (backgroundClock(this.timer !== undefined, activity)) {
      case "arm":
        this.timer = this.options.timers.setTimeout(() => {
          this.timer = undefined;
          this.expire();
        }, limitMs);
        return;
      case "disarm":
        this.stop();
        return;
      case "keep":
        return;
    }
  }

  /** The session left the pool: the clock must not fire for it. */
  stop(): void {
    if (this.timer !== undefined) this.options.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * Its background work ran the limit with nothing else going on: stop it (the runtime kills each
   * job and reports it stopped, with our reason on the owning task), and stop counting it as busy
   * at once, so the session can be closed even if the runtime never confirms.
   */
  private expire(): void {
    const { session, limitMs, logger, key } = this.options;
    const tasks = session.backgroundTasks();
    if (tasks.length === 0 || session.foregroundActive) return;
    this.stoppedWork = true;
    const reason = backgroundLimitReason(limitMs);
    logger.info(
      { conversation: key, backgroundTasks: tasks.map((t) => t.taskId), maxBackgroundMs: limitMs },
      "background work ran past sessions.maxBackgroundMs: stopping it",
    );
    for (const task of tasks) {
      session.stopBackgroundTask(task.taskId, reason).catch((err: unknown) => {
        logger.warn(
          { err, conversation: key, backgroundTask: task.taskId },
          "stopping background work failed",
        );
      });
    }
    this.options.onExpired();
  }
}
