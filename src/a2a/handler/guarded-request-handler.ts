import { TaskState } from "@a2a-js/sdk";
import type {
  AgentCard,
  Message,
  CancelTaskRequest,
  GetTaskRequest,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageRequest,
  StreamResponse,
  Task,
  TaskPushNotificationConfig,
} from "@a2a-js/sdk";
import {
  RequestMalformedError,
  TaskNotCancelableError,
  UnsupportedOperationError,
} from "@a2a-js/sdk/errors";
import {
  DefaultRequestHandler,
  type AgentExecutor,
  type ExecutionEventBusManager,
  type ExtendedAgentCardProvider,
  type PushNotificationSender,
  type PushNotificationStore,
  type ServerCallContext,
  type TaskStore,
} from "@a2a-js/sdk/server";
import { ownerOf } from "../../identity/conversation.js";
import type { AdmissionResult } from "../../limits/caller-limits.js";
import { checkContentModes, contentModesOf, type ContentModes } from "../content/content-modes.js";
import { assertPushTarget, type PushTargetPolicy } from "../push/target.js";
import { requestedBudget } from "../task/task-usage.js";
import { taskSettings, type TaskPolicies } from "../task/task-settings.js";
import { isTerminalState } from "../../contract/task-states.js";
import { REFUSAL_STATE_KEY } from "../../contract/limits.js";
import { cannotTakeMessage, isWorking, SteerGate, type SteerableTasks } from "../control/index.js";
import { FreshTasks } from "./fresh-tasks.js";
import { checkHistoryLength } from "./history-length.js";
import { CallerLimitError } from "./limit-error.js";

/** What the guard needs to know of the executor (`steer`: the control extension's steering). */
export interface ActiveTasks extends SteerableTasks {
  isActive(taskId: string): boolean;
  /** Whether a task live here is working or waiting for an answer; undefined if not live. */
  liveState(taskId: string): "working" | "parked" | undefined;
  /** Reserves a parked task for this answer; returns why it cannot, or undefined. */
  claimAnswer(taskId: string, message: Message): string | undefined;
  /** The request ended: undoes its claim if it did not answer (no-op once answered). */
  releaseClaim(taskId: string, messageId: string): void;
  /** Why an admitted answer was not delivered (its task moved on meanwhile), once. */
  takeRefusal(messageId: string): string | undefined;
}

const stateName = (state: TaskState | undefined): string =>
  (TaskState[state ?? TaskState.TASK_STATE_UNSPECIFIED] ?? "ended")
    .replace(/^TASK_STATE_/, "")
    .toLowerCase();

export { cannotTakeMessage };
export { historyLengthProblem } from "./history-length.js";

export const stillWorkingMessage = (taskId: string) =>
  `Task ${taskId} is still working; wait for input-required or send a new message without taskId.`;

/**
 * What the guard checks besides tasks: the server's limits, and what a message may choose
 * (`models`, `sandbox`: unset, those keys are not checked).
 */
export interface GuardOptions extends TaskPolicies {
  /** `claude.maxBudgetUsd`: a message's `metadata.maxBudgetUsd` may lower it, never raise it. */
  readonly maxBudgetUsd?: number | undefined;
  /** Per-caller limits on new tasks (unset: none configured). */
  readonly callerLimits?: NewTaskLimits | undefined;
  /** The controls of the control extension that are on (`server.control`; unset: none). */
  readonly control?: { readonly steer: boolean } | undefined;
}

/** Per-caller limits, as the guard asks them before a new task exists. */
export interface NewTaskLimits {
  /** Admits a new task of `owner` for the message `messageId`, or says which limit refuses it. */
  admit(owner: string, messageId: string): AdmissionResult;
}

interface Claim {
  readonly taskId: string;
  readonly messageId: string;
}

/**
 * Refuses requests that must touch nothing, BEFORE the SDK opens the task's event bus.
 *
 * Every turn of a task shares one bus (`createOrGetByTaskId`). A message for a task that is
 * still working would publish into the running turn's live queue, and its head task snapshot is
 * exactly what the SDK rejects there ("Stream ordering violation: received task in task lifecycle
 * stream"). Throwing from `execute()` instead would be worse: the SDK catches it and publishes a
 * synthetic task + FAILED status on the shared bus, i.e. into the running turn. So the check lives
 * here, where a throw becomes a JSON-RPC error for the new request alone.
 *
 * Why it is over 300 lines: it is the SDK's request handler with one override per A2A method that
 * must refuse before a bus or a task exists (send, stream, get, list, cancel, push configs), each
 * a short check in front of `super`, and the checks they share; every decision behind a check is
 * a pure function elsewhere (task-settings.ts, task-usage.ts, interaction/, the push target
 * policy, the per-caller limits), and splitting the overrides would part a method from its check.
 */
export class GuardedRequestHandler extends DefaultRequestHandler {
  private readonly activeTasks: ActiveTasks;
  private readonly contentModes: ContentModes;
  private readonly pushEnabled: boolean;
  private readonly steering: SteerGate;

  constructor(
    card: AgentCard,
    private readonly tasks: TaskStore,
    executor: AgentExecutor & ActiveTasks,
    busManager: ExecutionEventBusManager,
    pushStore?: PushNotificationStore,
    pushSender?: PushNotificationSender,
    /** Webhook URLs are checked before a config is stored (unset: the SDK stores any URL). */
    private readonly pushTargets?: PushTargetPolicy,
    private readonly limits: GuardOptions = {},
    /** GetExtendedAgentCard's answer (unset: the SDK's refusal, as the card has none). */
    extendedCard?: ExtendedAgentCardProvider,
  ) {
    // A new task's first load is answered without the store (`fresh-tasks.ts`).
    const fresh = new FreshTasks();
    super(
      card,
      fresh.store(tasks),
      fresh.marking(executor),
      busManager,
      pushStore,
      pushSender,
      extendedCard,
    );
    this.activeTasks = executor;
    this.contentModes = contentModesOf(card);
    this.pushEnabled = card.capabilities?.pushNotifications === true;
    const steers = limits.control?.steer === true;
    this.steering = new SteerGate(tasks, executor, steers, this.contentModes);
  }

  override async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    const steer = await this.steering.steerOf(params, context);
    if (steer !== undefined) return this.steering.answer(steer, params, context);
    const { claimed, admitted } = await this.guardSend(params, context);
    try {
      const result = await super.sendMessage(params, context);
      this.throwIfRefused(claimed);
      return result;
    } catch (err) {
      // A refused answer is the reason, not whatever the SDK made of an execute() that published
      // nothing.
      this.throwIfRefused(claimed);
      throw err;
    } finally {
      admitted?.release();
      if (claimed) this.activeTasks.releaseClaim(claimed.taskId, claimed.messageId);
    }
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const steer = await this.steering.steerOf(params, context);
    if (steer !== undefined) {
      const id = steer.taskId;
      yield* this.steering.stream(steer, params, context, () =>
        super.resubscribe({ tenant: params.tenant, id }, context),
      );
      return;
    }
    const { claimed, admitted } = await this.guardSend(params, context);
    try {
      for await (const event of super.sendMessageStream(params, context)) {
        this.throwIfRefused(claimed);
        yield event;
      }
      this.throwIfRefused(claimed);
    } catch (err) {
      this.throwIfRefused(claimed);
      throw err;
    } finally {
      admitted?.release();
      if (claimed) this.activeTasks.releaseClaim(claimed.taskId, claimed.messageId);
    }
  }

  override async getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    checkHistoryLength(params.historyLength);
    return super.getTask(params, context);
  }

  override async listTasks(
    params: ListTasksRequest,
    context: ServerCallContext,
  ): Promise<ListTasksResponse> {
    checkHistoryLength(params.historyLength);
    return super.listTasks(params, context);
  }

  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const task = await this.tasks.load(params.id, context);
    // Unknown: the SDK's own TaskNotFound. Terminal: TaskNotCancelable, a canceled task included
    // (the SDK would answer a second cancel with the task, as if it had canceled it again).
    if (task && isTerminalState(task.status?.state)) {
      throw new TaskNotCancelableError(
        `Task ${task.id} is not cancelable: it has already ended (${stateName(task.status?.state)}).`,
      );
    }
    if (task && !this.activeTasks.isActive(task.id)) {
      throw new TaskNotCancelableError(
        `Task ${task.id} is not running on this server and cannot be canceled.`,
      );
    }
    return super.cancelTask(params, context);
  }

  override async createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    await this.checkPushTarget(params);
    return super.createTaskPushNotificationConfig(params, context);
  }

  /**
   * Refuses a new task's `metadata.maxBudgetUsd` that is not a positive number or is above
   * `claude.maxBudgetUsd` (InvalidParams). Only the message that creates a task sets its budget:
   * on an answer (it names its task) the key is ignored.
   */
  private checkBudget(message: Message | undefined): void {
    if (message === undefined || message.taskId) return;
    const budget = requestedBudget(message.metadata, this.limits.maxBudgetUsd);
    if (!budget.ok) throw new RequestMalformedError(budget.reason);
  }

  /**
   * Refuses a new task's `metadata.model`, `effort` or `sandbox` the policy does not allow (a
   * sandbox wider than the workspace's), with InvalidParams. Only the creating message chooses.
   */
  private checkSettings(message: Message | undefined): void {
    const { models, sandbox } = this.limits;
    if (message === undefined || message.taskId || (!models && !sandbox)) return;
    const settings = taskSettings(message.metadata, { models, sandbox });
    if (!settings.ok) throw new RequestMalformedError(settings.reason);
  }

  /** Refuses a webhook the server must not call, before the SDK stores anything. */
  private async checkPushTarget(config: TaskPushNotificationConfig | undefined): Promise<void> {
    // Push off: the SDK ignores a message's config and refuses the push methods itself.
    if (config === undefined || !this.pushEnabled || this.pushTargets === undefined) return;
    await assertPushTarget(config.url, this.pushTargets);
  }

  /**
   * Everything a send must pass before the SDK sees it, in order: its shape, content modes and
   * budget, its webhook, then the answer's claim on its input request or the new task's
   * admission under its caller's limits. The caller releases what it returns.
   */
  private async guardSend(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<{ claimed: Claim | undefined; admitted: { release(): void } | undefined }> {
    checkHistoryLength(params.configuration?.historyLength);
    checkContentModes(params, this.contentModes);
    this.checkBudget(params.message);
    this.checkSettings(params.message);
    await this.checkPushTarget(params.configuration?.taskPushNotificationConfig);
    const claimed = await this.admit(params, context);
    const admitted = claimed === undefined ? this.admitNewTask(params, context) : undefined;
    return { claimed, admitted };
  }

  /**
   * A message that will create a task (it names none) is counted against its caller's limits, or
   * refused by one of them. The admission holds its place until the task exists or the request ends.
   */
  private admitNewTask(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): { release(): void } | undefined {
    const message = params.message;
    const limits = this.limits.callerLimits;
    if (limits === undefined || message === undefined || message.taskId) return undefined;
    const owner = ownerOf(context);
    const result = limits.admit(owner, message.messageId);
    if (!result.ok) {
      const error = new CallerLimitError(owner, result.refusal, result.at);
      // For the binding: it answers in its own shape (REST 429 and Retry-After, JSON-RPC -32029).
      context.state.set(REFUSAL_STATE_KEY, error.info);
      throw error;
    }
    return result.admission;
  }

  private throwIfRefused(claimed: Claim | undefined): void {
    if (claimed === undefined) return;
    const why = this.activeTasks.takeRefusal(claimed.messageId);
    if (why !== undefined) {
      throw new UnsupportedOperationError(cannotTakeMessage(claimed.taskId, why));
    }
  }

  /**
   * Refuses a message for a task that is still working, and reserves a parked task for the one
   * message that answers it (a second answer racing it is refused). Returns the reservation.
   */
  private async admit(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Claim | undefined> {
    const message = params.message;
    const taskId = message?.taskId;
    if (!message || !taskId) return undefined;
    const task = await this.tasks.load(taskId, context);
    const state = task?.status?.state;
    // Unknown or finished: the SDK's own refusals (TaskNotFound, UnsupportedOperation) apply.
    if (task === undefined || isTerminalState(state)) return undefined;
    if (isWorking(this.activeTasks.liveState(taskId), task)) {
      throw new UnsupportedOperationError(stillWorkingMessage(taskId));
    }
    if (message.contextId && message.contextId !== task.contextId) return undefined; // SDK: -32602
    const why = this.activeTasks.claimAnswer(taskId, message);
    if (why !== undefined) throw new UnsupportedOperationError(cannotTakeMessage(taskId, why));
    return { taskId, messageId: message.messageId };
  }
}
