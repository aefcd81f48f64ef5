import { AgentEvent, type AgentExecutionEvent, type ExecutionEventBus } from "@a2a-js/sdk/server";
import {
  TaskState,
  type Task,
  type TaskArtifactUpdateEvent,
  type TaskStatusUpdateEvent,
} from "@a2a-js/sdk";
import type { Logger } from "pino";
import type { TaskRef } from "./messages.js";

const TERMINAL = new Set<TaskState>([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

export const isTerminalState = (state: TaskState | undefined): boolean =>
  state !== undefined && TERMINAL.has(state);

/**
 * Everything a task turn publishes goes through here, so that a task gets exactly one terminal
 * status: once one is out (completed, failed, or canceled by `cancelTask`), later events of the
 * same task are dropped instead of reaching clients and the store.
 */
export class TaskPublisher {
  private terminalState: TaskState | undefined;

  constructor(
    readonly ref: TaskRef,
    private readonly bus: ExecutionEventBus,
    private readonly logger: Logger,
    /** Also store each event: for a parked task, whose bus no request consumes. */
    private readonly persist?: (event: AgentExecutionEvent) => void,
  ) {}

  get isTerminal(): boolean {
    return this.terminalState !== undefined;
  }

  task(task: Task): void {
    if (this.dropped("task")) return;
    this.emit(AgentEvent.task(task));
  }

  status(event: TaskStatusUpdateEvent): void {
    if (this.dropped("status")) return;
    const state = event.status?.state;
    if (isTerminalState(state)) this.terminalState = state;
    this.emit(AgentEvent.statusUpdate(event));
  }

  artifact(event: TaskArtifactUpdateEvent): void {
    if (this.dropped("artifact")) return;
    this.emit(AgentEvent.artifactUpdate(event));
  }

  private emit(event: AgentExecutionEvent): void {
    this.bus.publish(event);
    this.persist?.(event);
  }

  private dropped(what: string): boolean {
    if (this.terminalState === undefined) return false;
    this.logger.debug({ taskId: this.ref.taskId, what }, "event after terminal status dropped");
    return true;
  }
}
