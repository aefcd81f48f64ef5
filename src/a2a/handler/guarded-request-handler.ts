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
import type { SteerPriority } from "../../claude/index.js";
import { ownerOf } from "../../identity/conversation.js";
import { actingOperator } from "../../identity/operators.js";
import type { AdmissionResult } from "../../limits/caller-limits.js";
import { checkContentModes, contentModesOf, type ContentModes } from "../content/content-modes.js";
import { assertPushTarget, type PushTargetPolicy } from "../push/target.js";
import { requestedBudget } from "../task/task-usage.js";
import { requestedSettings } from "../task/task-settings.js";
import type { ModelPolicy } from "../../contract/task-options.js";
import { isTerminalState } from "../../contract/task-states.js";
import { REFUSAL_STATE_KEY } from "../../contract/limits.js";
import { CONTROL_EXTENSION_URI, controlRequested } from "../../contract/control.js";
import { steerDecision } from "../control/steer-decision.js";
import { FreshTasks } from "./fresh-tasks.js";
import { CallerLimitError } from "./limit-error.js";

/** What the guard needs to know of the executor. */
export interface ActiveTasks {
  isActive(taskId: string): boolean;
  /** Whether a task live here is working or waiting for an answer; undefined if not live. */
  liveState(taskId: string): "working" | "parked" | undefined;
  /** Reserves a parked task for this answer; returns why it cannot, or undefined. */
  claimAnswer(taskId: string, message: Message): string | undefined;
  /** The request ended: undoes its claim if it did not answer (no-op once answered). */
  releaseClaim(taskId: string, messageId: string): void;
  /** Why an admitted answer was not delivered (its task moved on meanwhile), once. */
  takeRefusal(messageId: string): string | undefined;
  /** Delivers a steering message to a working task; returns why it cannot (unset: no steering). */
  steer?(
    taskId: string,
    message: Message,
    priority: SteerPriority,
    operator: string | undefined,
  ): string | undefined;
}

const stateName = (state: TaskState | undefined): string =>
  (TaskState[state ?? TaskState.TASK_STATE_UNSPECIFIED] ?? "ended")
    .replace(/^TASK_STATE_/, "")
    .toLowerCase();

export const cannotTakeMessage = (taskId: string, why: string) =>
  `Task ${taskId} cannot take this message: ${why}.`;

export const stillWorkingMessage = (taskId: string) =>
  `Task ${taskId} is still working; wait for input-required or send a new message without taskId.`;

/** What the guard checks besides tasks: the server's limits. */
export interface GuardOptions {
  /** `claude.maxBudgetUsd`: a message's `metadata.maxBudgetUsd` may lower it, never raise it. */
  readonly maxBudgetUsd?: number | undefined;
  /** Per-caller limits on new tasks (unset: none configured). */
  readonly callerLimits?: NewTaskLimits | undefined;
  /** The models and efforts a message may ask for (unset: the keys are not checked). */
  readonly models?: ModelPolicy | undefined;
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

/** A message for a working task that the control extension lets through as steering. */
interface Steer {
  readonly taskId: string;
  readonly priority: SteerPriority;
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
 */
export class GuardedRequestHandler extends DefaultRequestHandler {
  private readonly activeTasks: ActiveTasks;
  private readonly contentModes: ContentModes;
  private readonly pushEnabled: boolean;

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
  }

  override async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    const steer = await this.steerOf(params, context);
    if (steer !== undefined) {
      this.deliverSteer(steer, params, context);
      const task = await this.tasks.load(steer.taskId, context);
      if (task === undefined)
        throw new UnsupportedOperationError(stillWorkingMessage(steer.taskId));
      return task;
    }
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
    const steer = await this.steerOf(params, context);
    if (steer !== undefined) {
      // The answer is the task's stream from here on: subscribed first, so nothing is missed.
      const stream = super.resubscribe({ tenant: params.tenant, id: steer.taskId }, context);
      const head = await stream.next();
      this.deliverSteer(steer, params, context);
      if (head.done !== true) yield head.value;
      yield* stream;
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

  /**
   * A message for a task that is working, from a client that activated the control extension
   * with steering on: the steering it asks for (`steer-decision.ts`). Undefined for every other
   * message, which takes the path it always took (a working task's refusal included).
   */
  private async steerOf(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Steer | undefined> {
    const message = params.message;
    const taskId = message?.taskId;
    if (!message || !taskId || !controlRequested(context.requestedExtensions)) return undefined;
    const task = await this.tasks.load(taskId, context);
    if (task === undefined || isTerminalState(task.status?.state)) return undefined;
    if (!this.isWorking(taskId, task.status?.state)) return undefined;
    const decision = steerDecision({
      extensionActive: true,
      enabled: this.limits.control?.steer === true,
      steer: message.metadata?.steer,
    });
    switch (decision.kind) {
      case "refuse_working":
        return undefined;
      case "bad_request":
        throw new RequestMalformedError(decision.reason);
      case "steer":
        if (message.contextId && message.contextId !== task.contextId) {
          throw new RequestMalformedError(
            `contextId ${message.contextId} is not the context of task ${taskId}`,
          );
        }
        checkContentModes(params, this.contentModes);
        return { taskId, priority: decision.priority };
    }
  }

  private deliverSteer(steer: Steer, params: SendMessageRequest, context: ServerCallContext): void {
    const message = params.message as Message;
    const operator = actingOperator(context.state);
    const why =
      this.activeTasks.steer?.(steer.taskId, message, steer.priority, operator) ??
      (this.activeTasks.steer === undefined ? "steering is not served here" : undefined);
    if (why !== undefined)
      throw new UnsupportedOperationError(cannotTakeMessage(steer.taskId, why));
    context.addActivatedExtension(CONTROL_EXTENSION_URI);
  }

  /** Working here (the live task is the truth; the store may lag behind it by a write). */
  private isWorking(taskId: string, state: TaskState | undefined): boolean {
    const live = this.activeTasks.liveState(taskId);
    const storedWorking =
      state === TaskState.TASK_STATE_WORKING || state === TaskState.TASK_STATE_SUBMITTED;
    return live === "working" || (live === undefined && storedWorking);
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
   * Refuses a new task's `metadata.model` or `metadata.effort` the policy does not allow
   * (InvalidParams, naming what is). Like the budget, only the creating message chooses.
   */
  private checkSettings(message: Message | undefined): void {
    const policy = this.limits.models;
    if (message === undefined || message.taskId || policy === undefined) return;
    const settings = requestedSettings(message.metadata, policy);
    if (!settings.ok) throw new RequestMalformedError(settings.reason);
  }

  /** Refuses a webhook the server must not call, before the SDK stores anything. */
  private async checkPushTarget(config: TaskPushNotificationConfig | undefined): Promise<void> {
    // Push off: the SDK ignores a message's config and refuses the push methods itself.
    if (config === undefined || !this.pushEnabled || this.pushTargets === undefined) return;
    await assertPushTarget(config.url, this.pushTargets);
  }

  /**
   * A message that will create a task (it names none) is counted against its caller's limits, or
   * refused by one of them. The admission holds its place under `concurrentTasks` until the task
   * exists (the executor takes it over) or the request ends without one.
   */
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
    if (this.isWorking(taskId, state)) {
      throw new UnsupportedOperationError(stillWorkingMessage(taskId));
    }
    if (message.contextId && message.contextId !== task.contextId) return undefined; // SDK: -32602
    const why = this.activeTasks.claimAnswer(taskId, message);
    if (why !== undefined) throw new UnsupportedOperationError(cannotTakeMessage(taskId, why));
    return { taskId, messageId: message.messageId };
  }
}

/**
 * What is wrong with a request's `historyLength`: A2A reads it as "at most this many messages",
 * so a negative one is invalid, not "all" (the SDK's REST layer refuses it; its JSON-RPC and gRPC
 * paths did not). Undefined when it is fine.
 */
export function historyLengthProblem(historyLength: number | undefined): string | undefined {
  if (historyLength === undefined || historyLength >= 0) return undefined;
  return `historyLength must be 0 or more (got ${historyLength})`;
}

function checkHistoryLength(historyLength: number | undefined): void {
  const problem = historyLengthProblem(historyLength);
  if (problem !== undefined) throw new RequestMalformedError(problem);
}
