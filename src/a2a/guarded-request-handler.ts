import { TaskState } from "@a2a-js/sdk";
import type {
  AgentCard,
  CancelTaskRequest,
  SendMessageRequest,
  StreamResponse,
  Task,
} from "@a2a-js/sdk";
import { TaskNotCancelableError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import {
  DefaultRequestHandler,
  type AgentExecutor,
  type ServerCallContext,
  type TaskStore,
} from "@a2a-js/sdk/server";
import { isTerminalState } from "./task-publisher.js";

/** What the guard needs to know of the executor. */
export interface ActiveTasks {
  isActive(taskId: string): boolean;
}

export const stillWorkingMessage = (taskId: string) =>
  `Task ${taskId} is still working; wait for input-required or send a new message without taskId.`;

/**
 * Refuses requests that must touch nothing, BEFORE the SDK opens the task's event bus.
 *
 * Every turn of a task shares one bus (`createOrGetByTaskId`). A message for a task that is
 * still working would publish into the running turn's live queue, and its head task snapshot is
 * exactly what the SDK rejects there ("Stream ordering violation: received task in task lifecycle
 * stream"). Throwing from `execute()` instead would be worse: the SDK catches it and publishes a
 * synthetic task + FAILED status on the shared bus, i.e. into the running turn. So the check lives
 * here, where a throw becomes a JSON-RPC error for the new request alone.
 */
export class GuardedRequestHandler extends DefaultRequestHandler {
  constructor(
    card: AgentCard,
    private readonly tasks: TaskStore,
    executor: AgentExecutor & ActiveTasks,
    private readonly activeTasks: ActiveTasks = executor,
  ) {
    super(card, tasks, executor);
  }

  override async sendMessage(params: SendMessageRequest, context: ServerCallContext) {
    await this.refuseBusyTask(params, context);
    return super.sendMessage(params, context);
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    await this.refuseBusyTask(params, context);
    yield* super.sendMessageStream(params, context);
  }

  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const task = await this.tasks.load(params.id, context);
    // Unknown or terminal tasks: the SDK's own answers (TaskNotFound, TaskNotCancelable) apply.
    if (task && !isTerminalState(task.status?.state) && !this.activeTasks.isActive(task.id)) {
      throw new TaskNotCancelableError(
        `Task ${task.id} is not running on this server and cannot be canceled.`,
      );
    }
    return super.cancelTask(params, context);
  }

  private async refuseBusyTask(params: SendMessageRequest, context: ServerCallContext) {
    const taskId = params.message?.taskId;
    if (!taskId) return;
    const task = await this.tasks.load(taskId, context);
    const state = task?.status?.state;
    if (state === TaskState.TASK_STATE_WORKING || state === TaskState.TASK_STATE_SUBMITTED) {
      throw new UnsupportedOperationError(stillWorkingMessage(taskId));
    }
  }
}
