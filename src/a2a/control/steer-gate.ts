import {
  TaskState,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type Task,
} from "@a2a-js/sdk";
import { RequestMalformedError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";
import type { SteerPriority } from "../../claude/index.js";
import { CONTROL_EXTENSION_URI, controlRequested } from "../../contract/control.js";
import { isTerminalState } from "../../contract/task-states.js";
import { actingOperator } from "../../identity/operators.js";
import { checkContentModes, type ContentModes } from "../content/content-modes.js";
import { steerDecision } from "./steer-decision.js";

/** A message for a working task that the control extension lets through as steering. */
export interface Steer {
  readonly taskId: string;
  readonly priority: SteerPriority;
}

/** What the gate needs to know of the tasks this server runs. */
export interface SteerableTasks {
  liveState(taskId: string): "working" | "parked" | undefined;
  /** Delivers a steering message to a working task; returns why it cannot (unset: no steering). */
  steer?(
    taskId: string,
    message: Message,
    priority: SteerPriority,
    operator: string | undefined,
  ): string | undefined;
}

export const cannotTakeMessage = (taskId: string, why: string) =>
  `Task ${taskId} cannot take this message: ${why}.`;

/**
 * The request guard's steering step (docs/control.md): which messages for a working task are
 * steering, and their delivery. Every other message takes the path it always took, a working
 * task's refusal included.
 */
export class SteerGate {
  constructor(
    private readonly tasks: TaskStore,
    private readonly live: SteerableTasks,
    /** `server.control.steer`. */
    private readonly enabled: boolean,
    private readonly contentModes: ContentModes,
  ) {}

  /** SendMessage's answer to steering: delivered, then the task as it is (still working). */
  async answer(
    steer: Steer,
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Task> {
    checkContentModes(params, this.contentModes);
    this.deliver(steer, params.message as Message, context);
    const task = await this.tasks.load(steer.taskId, context);
    if (task === undefined) throw new UnsupportedOperationError(`Task ${steer.taskId} is gone.`);
    return task;
  }

  /**
   * SendStreamingMessage's answer: the task's stream from here on (`subscribe`, the SDK's
   * SubscribeToTask), subscribed before the message is delivered, so nothing is missed.
   */
  async *stream(
    steer: Steer,
    params: SendMessageRequest,
    context: ServerCallContext,
    subscribe: () => AsyncGenerator<StreamResponse, void, undefined>,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    checkContentModes(params, this.contentModes);
    const stream = subscribe();
    const head = await stream.next();
    this.deliver(steer, params.message as Message, context);
    if (head.done !== true) yield head.value;
    yield* stream;
  }

  /**
   * The steering a message asks for: it names a task that is working, its client activated the
   * control extension, and steering is on. Undefined for every other message; a bad
   * `metadata.steer` or a foreign `contextId` is refused (invalid params).
   */
  async steerOf(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Steer | undefined> {
    const message = params.message;
    const taskId = message?.taskId;
    if (!message || !taskId || !controlRequested(context.requestedExtensions)) return undefined;
    const task = await this.tasks.load(taskId, context);
    if (task === undefined || isTerminalState(task.status?.state)) return undefined;
    if (!isWorking(this.live.liveState(taskId), task)) return undefined;
    const decision = steerDecision({
      extensionActive: true,
      enabled: this.enabled,
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
        return { taskId, priority: decision.priority };
    }
  }

  /** Hands the message to its task (refused with why it cannot take it); confirms the extension. */
  private deliver(steer: Steer, message: Message, context: ServerCallContext): void {
    const operator = actingOperator(context.state);
    const steerTask = this.live.steer?.bind(this.live);
    const why =
      steerTask === undefined
        ? "steering is not served here"
        : steerTask(steer.taskId, message, steer.priority, operator);
    if (why !== undefined)
      throw new UnsupportedOperationError(cannotTakeMessage(steer.taskId, why));
    context.addActivatedExtension(CONTROL_EXTENSION_URI);
  }
}

/** Working here: the live task is the truth; the store may lag behind it by a write. Pure. */
export function isWorking(live: "working" | "parked" | undefined, task: Pick<Task, "status">) {
  const state = task.status?.state;
  const storedWorking =
    state === TaskState.TASK_STATE_WORKING || state === TaskState.TASK_STATE_SUBMITTED;
  return live === "working" || (live === undefined && storedWorking);
}
