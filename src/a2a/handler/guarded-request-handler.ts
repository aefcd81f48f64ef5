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
import type { A2ARequestHandler, ServerCallContext, TaskStore } from "@a2a-js/sdk/server";
import { checkContentModes, contentModesOf, type ContentModes } from "../content/content-modes.js";
import { assertPushTarget, type PushTargetPolicy } from "../push/target.js";
import { CONTROL_EXTENSION_URI, controlRequested } from "../../contract/control.js";
import type { ControlCheck } from "../control/rewind-fork-decision.js";
import { cannotTakeMessage, SteerGate, type SteerableTasks } from "../control/steer-gate.js";
import { answerDecision, stillWorkingMessage } from "./answer-guard.js";
import { admitNewTask, type NewTaskLimits } from "./caller-admission.js";
import { cancelRefusal } from "./cancel-guard.js";
import { checkHistoryLength } from "./history-length.js";
import {
  checkNewTask,
  NEW_TASK_STATE_KEY,
  type NewTaskPolicy,
} from "../admission/new-task-guard.js";
import { HandlerLayer } from "./handler-layer.js";
import { answeringOperator } from "../../identity/operators.js";

/** What the guard needs to know of the executor (`steer`: the control extension's steering). */
export interface ActiveTasks extends SteerableTasks {
  isActive(taskId: string): boolean;
  /** Whether a task live here is working or waiting for an answer; undefined if not live. */
  liveState(taskId: string): "working" | "parked" | undefined;
  /**
   * Reserves a parked task for this answer; returns why it cannot, or undefined. `stored`: the
   * task as stored (a prompt kept across a restart is claimed from it).
   */
  claimAnswer(
    taskId: string,
    message: Message,
    stored: Task | undefined,
    /** The answering caller's name when it has the operator role. */
    operator?: string,
  ): string | undefined;
  /** The request ended: undoes its claim if it did not answer (no-op once answered). */
  releaseClaim(taskId: string, messageId: string): void;
  /** Why an admitted answer was not delivered (its task moved on meanwhile), once. */
  takeRefusal(messageId: string): string | undefined;
  /** A new message's rewind or fork (`metadata.rewindTo`, `forkOf`); unset: not checked here. */
  checkControl?(message: Message, context: ServerCallContext): Promise<ControlCheck>;
}

export { cannotTakeMessage, stillWorkingMessage };
export type { NewTaskLimits };
export { historyLengthProblem } from "./history-length.js";

/**
 * What the guard checks besides tasks: the server's limits, and what a message may choose
 * (`models`, `sandbox`: unset, those keys are not checked).
 */
export interface GuardOptions extends NewTaskPolicy {
  /** Per-caller limits on new tasks (unset: none configured). */
  readonly callerLimits?: NewTaskLimits | undefined;
  /** The controls of the control extension that are on (`server.control`; unset: none). */
  readonly control?: { readonly steer: boolean } | undefined;
}

export interface GuardedHandlerOptions {
  /** The card as served: its content modes and whether push is on. */
  readonly card: AgentCard;
  /** The tasks as stored, read to decide (the same store the SDK's handler writes). */
  readonly taskStore: TaskStore;
  readonly activeTasks: ActiveTasks;
  /** Webhook URLs are checked before a config is stored (unset: the SDK stores any URL). */
  readonly pushTargets?: PushTargetPolicy | undefined;
  /** What a message may choose, and the per-caller limits (unset: nothing checked). */
  readonly policy?: GuardOptions | undefined;
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
 * Each override is a short check in front of the layer below (`inner`); every decision behind a check is a pure
 * function of its own module (answer-guard.ts, cancel-guard.ts, new-task-guard.ts, the steering
 * and rewind/fork decisions of control/, the push target policy, the per-caller limits).
 */
export class GuardedRequestHandler extends HandlerLayer {
  private readonly tasks: TaskStore;
  private readonly activeTasks: ActiveTasks;
  private readonly contentModes: ContentModes;
  private readonly pushEnabled: boolean;
  private readonly pushTargets: PushTargetPolicy | undefined;
  private readonly limits: GuardOptions;
  private readonly steering: SteerGate;

  constructor(inner: A2ARequestHandler, o: GuardedHandlerOptions) {
    super(inner);
    this.tasks = o.taskStore;
    this.activeTasks = o.activeTasks;
    this.contentModes = contentModesOf(o.card);
    this.pushEnabled = o.card.capabilities?.pushNotifications === true;
    this.pushTargets = o.pushTargets;
    this.limits = o.policy ?? {};
    const steers = this.limits.control?.steer === true;
    this.steering = new SteerGate(o.taskStore, o.activeTasks, steers, this.contentModes);
  }

  override async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    const steer = await this.steering.steerOf(params, context);
    if (steer !== undefined) return this.steering.answer(steer, params, context);
    const { claimed, admitted } = await this.guardSend(params, context);
    try {
      const result = await this.inner.sendMessage(params, context);
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
        this.inner.resubscribe({ tenant: params.tenant, id }, context),
      );
      return;
    }
    const { claimed, admitted } = await this.guardSend(params, context);
    try {
      for await (const event of this.inner.sendMessageStream(params, context)) {
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
    return this.inner.getTask(params, context);
  }

  override async listTasks(
    params: ListTasksRequest,
    context: ServerCallContext,
  ): Promise<ListTasksResponse> {
    checkHistoryLength(params.historyLength);
    return this.inner.listTasks(params, context);
  }

  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const task = await this.tasks.load(params.id, context);
    const why = cancelRefusal(task, task !== undefined && this.activeTasks.isActive(task.id));
    if (why !== undefined) throw new TaskNotCancelableError(why);
    return this.inner.cancelTask(params, context);
  }

  override async createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    await this.checkPushTarget(params);
    return this.inner.createTaskPushNotificationConfig(params, context);
  }

  /**
   * Refuses what a new task's message may not choose (`new-task-guard.ts`), with InvalidParams;
   * a permission mode (or a delivery) it may is the control extension acted on.
   */
  private checkNewTask(message: Message | undefined, context: ServerCallContext): void {
    const control = controlRequested(context.requestedExtensions);
    const checked = checkNewTask(message, this.limits, control);
    if (!checked.ok) throw new RequestMalformedError(checked.reason);
    if (checked.permissionMode) context.addActivatedExtension(CONTROL_EXTENSION_URI);
    // Read once: the executor runs the new task with what was read here.
    if (checked.chosen !== undefined) context.state.set(NEW_TASK_STATE_KEY, checked.chosen);
  }

  /**
   * Refuses a rewind or fork that cannot be done (`control-admission.ts`: not the caller's task,
   * another context, the conversation busy, the task no longer on its branch…), with
   * InvalidParams, so that no task is stored for it; one that can is the extension acted on.
   */
  private async checkControl(message: Message | undefined, context: ServerCallContext) {
    const check = this.activeTasks.checkControl?.bind(this.activeTasks);
    if (message === undefined || check === undefined) return;
    const checked = await check(message, context);
    if (checked.kind === "refused") throw new RequestMalformedError(checked.reason);
    if (checked.kind === "admitted") context.addActivatedExtension(CONTROL_EXTENSION_URI);
  }

  /** Refuses a webhook the server must not call, before the SDK stores anything. */
  private async checkPushTarget(config: TaskPushNotificationConfig | undefined): Promise<void> {
    // Push off: the SDK ignores a message's config and refuses the push methods itself.
    if (config === undefined || !this.pushEnabled || this.pushTargets === undefined) return;
    await assertPushTarget(config.url, this.pushTargets);
  }

  /**
   * Everything a send must pass before the SDK sees it, in order: its shape, content modes, what
   * a new task chooses, its webhook, its rewind or fork, then the answer's claim on its input
   * request or the new task's admission under its caller's limits. The caller releases what it
   * returns.
   */
  private async guardSend(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<{ claimed: Claim | undefined; admitted: { release(): void } | undefined }> {
    checkHistoryLength(params.configuration?.historyLength);
    checkContentModes(params, this.contentModes);
    this.checkNewTask(params.message, context);
    await this.checkPushTarget(params.configuration?.taskPushNotificationConfig);
    await this.checkControl(params.message, context);
    const claimed = await this.admit(params, context);
    const admitted =
      claimed === undefined
        ? admitNewTask(this.limits.callerLimits, params.message, context)
        : undefined;
    return { claimed, admitted };
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
    const live = this.activeTasks.liveState(taskId);
    switch (answerDecision({ task, live, contextId: message.contextId })) {
      case "sdk":
        return undefined;
      case "working":
        throw new UnsupportedOperationError(stillWorkingMessage(taskId));
      case "claim":
        break;
    }
    const operator = answeringOperator(context.state);
    const why = this.activeTasks.claimAnswer(taskId, message, task, operator);
    if (why !== undefined) throw new UnsupportedOperationError(cannotTakeMessage(taskId, why));
    return { taskId, messageId: message.messageId };
  }
}
