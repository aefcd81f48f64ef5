import type { Logger } from "pino";
import type { NormalizedEvent } from "./normalize.js";

export type BackgroundTaskStatus = "running" | "completed" | "failed" | "stopped" | "gone";

export interface BackgroundTask {
  taskId: string;
  toolUseId?: string;
  /** The run whose tool use launched the task. */
  runId?: string;
  description: string;
  taskType?: string;
  /** False for a subagent the spawning tool call blocks on. */
  backgrounded: boolean;
  /** In the runtime's latest live set. */
  live: boolean;
  ambient: boolean;
  status: BackgroundTaskStatus;
  summary?: string;
  outputFile?: string;
  /** Set when the server stopped it (not the model, not the job itself): why. */
  stopReason?: string;
}

export type TaskChange =
  | { type: "started"; task: BackgroundTask }
  | { type: "attributed"; task: BackgroundTask }
  | { type: "finished"; task: BackgroundTask };

/**
 * task_id → tool_use_id → run. Task events are metadata: they attribute work to the run that
 * launched it and never drive a lifecycle.
 */
export class BackgroundTaskRegistry {
  private readonly tasks = new Map<string, BackgroundTask>();

  constructor(
    private readonly logger: Logger,
    private readonly runForToolUse: (toolUseId: string) => string | undefined,
  ) {}

  get(taskId: string): BackgroundTask | undefined {
    const t = this.tasks.get(taskId);
    return t === undefined ? undefined : { ...t };
  }

  runForTask(taskId: string): string | undefined {
    const task = this.tasks.get(taskId);
    if (task === undefined) return undefined;
    if (task.runId === undefined && task.toolUseId !== undefined) {
      const runId = this.runForToolUse(task.toolUseId);
      if (runId !== undefined) task.runId = runId;
    }
    return task.runId;
  }

  /** Live tasks that are real activity (the runtime marks watchers and housekeeping ambient). */
  live(): BackgroundTask[] {
    return [...this.tasks.values()].filter((t) => t.live && !t.ambient).map((t) => ({ ...t }));
  }

  all(): BackgroundTask[] {
    return [...this.tasks.values()].map((t) => ({ ...t }));
  }

  /**
   * The process is gone (closed): whatever still ran went with it. Each running task ends
   * `stopped`, with the reason it was stopped for, or else `reason`.
   */
  endAll(reason: string): TaskChange[] {
    const changes: TaskChange[] = [];
    for (const task of this.tasks.values()) {
      task.live = false;
      if (task.status !== "running") continue;
      task.status = "stopped";
      task.stopReason ??= reason;
      changes.push({ type: "finished", task: { ...task } });
    }
    return changes;
  }

  /** The server is stopping it: its end (however the runtime reports it) carries the reason. */
  markStopping(taskId: string, reason: string): void {
    const task = this.tasks.get(taskId);
    if (task?.status === "running") task.stopReason = reason;
  }

  apply(event: NormalizedEvent): TaskChange[] {
    switch (event.kind) {
      case "task_started":
        return this.started(event.taskId, event.toolUseId, {
          description: event.description,
          taskType: event.taskType,
          backgrounded: event.isBackgrounded,
        });
      case "task_progress":
        return this.started(event.taskId, event.toolUseId, { description: event.description });
      case "task_notification":
        return this.notified(event.taskId, event.toolUseId, event.status, event.summary, event);
      case "background_tasks_changed":
        return this.replace(event.tasks);
      case "task_updated":
      case "init":
      case "assistant":
      case "stream":
      case "user":
      case "result":
      case "session_state_changed":
      case "api_retry":
      case "metadata":
        return [];
    }
  }

  private started(
    taskId: string,
    toolUseId: string | undefined,
    info: {
      description: string;
      taskType?: string | undefined;
      backgrounded?: boolean | undefined;
      live?: boolean;
      ambient?: boolean;
    },
  ): TaskChange[] {
    const known = this.tasks.get(taskId);
    if (known !== undefined) {
      if (known.toolUseId !== undefined || toolUseId === undefined) return [];
      known.toolUseId = toolUseId;
      const runId = this.runForTask(taskId);
      this.logger.debug({ taskId, toolUseId, runId }, "tasks: attributed");
      return [{ type: "attributed", task: { ...known } }];
    }
    const task: BackgroundTask = {
      taskId,
      description: info.description,
      backgrounded: info.backgrounded ?? true,
      live: info.live ?? info.backgrounded ?? false,
      ambient: info.ambient ?? false,
      status: "running",
    };
    if (info.taskType !== undefined) task.taskType = info.taskType;
    if (toolUseId !== undefined) task.toolUseId = toolUseId;
    this.tasks.set(taskId, task);
    this.runForTask(taskId);
    this.logger.debug({ taskId, toolUseId, runId: task.runId }, "tasks: started");
    return [{ type: "started", task: { ...task } }];
  }

  private notified(
    taskId: string,
    toolUseId: string | undefined,
    status: string,
    summary: string,
    extra: { outputFile?: string },
  ): TaskChange[] {
    const changes = this.tasks.has(taskId)
      ? []
      : this.started(taskId, toolUseId, { description: summary });
    const task = this.tasks.get(taskId);
    if (task === undefined) return changes;
    if (task.toolUseId === undefined && toolUseId !== undefined) task.toolUseId = toolUseId;
    this.runForTask(taskId);
    task.summary = summary;
    if (extra.outputFile !== undefined) task.outputFile = extra.outputFile;
    if (task.status !== "running") return changes;
    task.status = status === "completed" || status === "failed" ? status : "stopped";
    this.logger.debug({ taskId, status: task.status, runId: task.runId }, "tasks: finished");
    return [...changes, { type: "finished", task: { ...task } }];
  }

  /** The runtime sends the whole live set each time: replace ours, never pair edges. */
  private replace(
    live: readonly { taskId: string; taskType: string; description: string; ambient: boolean }[],
  ): TaskChange[] {
    const changes: TaskChange[] = [];
    const ids = new Set(live.map((t) => t.taskId));
    for (const task of this.tasks.values()) {
      if (!ids.has(task.taskId) && task.live) {
        task.live = false;
        if (task.status === "running") {
          // Left the set without a notification (e.g. the process restarted): it is over.
          task.status = "gone";
          changes.push({ type: "finished", task: { ...task } });
        }
      }
    }
    for (const info of live) {
      let task = this.tasks.get(info.taskId);
      if (task === undefined) {
        const started = this.started(info.taskId, undefined, { ...info, live: true });
        changes.push(...started);
        task = this.tasks.get(info.taskId);
      }
      if (task === undefined) continue;
      task.live = true;
      task.ambient = info.ambient;
      task.backgrounded = true;
      if (task.taskType === undefined) task.taskType = info.taskType;
    }
    this.logger.debug({ live: [...ids] }, "tasks: live set replaced");
    return changes;
  }
}
