import {
  CancelTaskRequest,
  SendMessageConfiguration,
  SendMessageRequest,
  Task,
  type Message,
  type StreamResponse,
  type SubscribeToTaskRequest,
} from "@a2a-js/sdk";
import {
  A2AError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from "@a2a-js/sdk/errors";
import type {
  A2ARequestHandler,
  ExecutionEventBusManager,
  ServerCallContext,
  TaskStore,
} from "@a2a-js/sdk/server";
import { FLEET_TEXT } from "../contract/fleet-texts.js";
import { isTerminalState, stateWord } from "../contract/task-states.js";
import type { ActiveTasks } from "../a2a/handler/guarded-request-handler.js";
import { HandlerLayer } from "../a2a/handler/handler-layer.js";
import {
  CommandNotAnswered,
  type Command,
  type CommandKind,
  type CommandReply,
} from "./commands.js";
import { endsSubscription, type Subscription } from "./event-log.js";
import type { Fleet } from "./fleet.js";
import {
  contextOf,
  replyError,
  sendResultJson,
  sendResultOf,
  snapshotCaller,
} from "./forwarding.js";

export interface FleetHandlerOptions {
  readonly fleet: Fleet;
  /** The tasks as stored (the same store as the layers below). */
  readonly taskStore: TaskStore;
  /** The tasks live on this instance (the executor). */
  readonly activeTasks: ActiveTasks;
  readonly busManager: ExecutionEventBusManager;
}

interface RemoteOwner {
  readonly instance: string;
  readonly alive: boolean;
}

/**
 * The request handler of a fleet instance: any instance answers for any task. For a task another
 * (live) instance runs, `SubscribeToTask` and a streaming answer deliver the owner's events from
 * the events table; `CancelTask` and an answer are forwarded to the owner as commands, and the
 * client gets the owner's response (or a clear error when the owner is gone). Everything about a
 * task this instance runs, and every new task, goes to the layers below as before.
 */
export class FleetRequestHandler extends HandlerLayer {
  private readonly fleet: Fleet;
  private readonly store: TaskStore;
  private readonly local: ActiveTasks;
  private readonly buses: ExecutionEventBusManager;

  constructor(inner: A2ARequestHandler, o: FleetHandlerOptions) {
    super(inner);
    this.fleet = o.fleet;
    this.store = o.taskStore;
    this.local = o.activeTasks;
    this.buses = o.busManager;
    o.fleet.commands.serveWith((command) => this.serve(command));
  }

  override async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    const taskId = params.message?.taskId;
    const remote = taskId ? await this.remoteTask(taskId, context) : undefined;
    if (taskId === undefined || remote === undefined)
      return this.inner.sendMessage(params, context);
    const reply = await this.forward(
      remote.owner,
      taskId,
      "send",
      SendMessageRequest.toJSON(params),
      context,
    );
    return sendResultOf(reply.value);
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const taskId = params.message?.taskId;
    const remote = taskId ? await this.remoteTask(taskId, context) : undefined;
    if (taskId === undefined || remote === undefined) {
      yield* this.inner.sendMessageStream(params, context);
      return;
    }
    // Subscribed before the answer goes: every event the answer causes is after the cursor.
    const subscription = await this.fleet.events.subscribe(taskId);
    try {
      const immediate: SendMessageRequest = {
        ...params,
        configuration: {
          ...emptyConfiguration(),
          ...params.configuration,
          returnImmediately: true,
        },
      };
      const reply = await this.forward(
        remote.owner,
        taskId,
        "send",
        SendMessageRequest.toJSON(immediate),
        context,
      );
      // What the owner had relayed before it ran the answer is the previous turn's.
      if (reply.after !== undefined) subscription.skipTo(reply.after);
      yield* this.relayed(subscription, taskId, context);
    } finally {
      await subscription.close();
    }
  }

  override async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const taskId = params.id;
    const owner = taskId ? await this.remoteOwner(taskId, context) : undefined;
    if (owner === undefined) {
      yield* this.inner.resubscribe(params, context);
      return;
    }
    const subscription = await this.fleet.events.subscribe(taskId);
    try {
      // Loaded after the cursor was set: what happens from here on is in the table.
      const task = await this.store.load(taskId, context);
      if (!task) throw new TaskNotFoundError(`Task not found: ${taskId}`);
      const state = task.status?.state;
      if (state !== undefined && isTerminalState(state)) {
        throw new UnsupportedOperationError(
          `Task ${taskId} is in a terminal state (${stateWord(state)}) and cannot be subscribed to.`,
        );
      }
      yield { payload: { $case: "task", value: task } };
      yield* this.relayed(subscription, taskId, context);
    } finally {
      await subscription.close();
    }
  }

  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const remote = params.id ? await this.remoteTask(params.id, context) : undefined;
    if (remote === undefined) return this.inner.cancelTask(params, context);
    const reply = await this.forward(
      remote.owner,
      params.id,
      "cancel",
      CancelTaskRequest.toJSON(params),
      context,
    );
    return Task.fromJSON(reply.value);
  }

  /** Owner side: a command another instance forwarded, run as if its caller had sent it here. */
  private async serve(command: Command): Promise<CommandReply> {
    const context = contextOf(command.caller);
    switch (command.kind) {
      case "cancel": {
        const task = await this.cancelTask(CancelTaskRequest.fromJSON(command.request), context);
        return { ok: true, value: Task.toJSON(task) };
      }
      case "send": {
        // Every event of the task before this answer is written (and named) first: the
        // forwarder's relayed stream starts after them, with this answer's own events.
        const after = await this.fleet.events.lastSeq(command.taskId);
        const result = await this.sendMessage(
          SendMessageRequest.fromJSON(command.request),
          context,
        );
        return { ok: true, value: sendResultJson(result), after };
      }
    }
  }

  /** The owner of a task whose events are not here (no bus, not live here), when another runs it. */
  private async remoteOwner(
    taskId: string,
    context: ServerCallContext,
  ): Promise<RemoteOwner | undefined> {
    if (this.local.isActive(taskId) || this.buses.getByTaskId(taskId, context) !== undefined) {
      return undefined;
    }
    return this.fleet.remoteOwner(taskId);
  }

  /** A stored unfinished task of the caller's that another instance runs, with its owner. */
  private async remoteTask(
    taskId: string,
    context: ServerCallContext,
  ): Promise<{ task: Task; owner: RemoteOwner } | undefined> {
    if (this.local.isActive(taskId)) return undefined;
    const task = await this.store.load(taskId, context);
    if (task === undefined || isTerminalState(task.status?.state)) return undefined;
    const owner = await this.fleet.remoteOwner(taskId);
    return owner && { task, owner };
  }

  /** Forwards a command to the task's owner; its reply's value, or its error thrown here. */
  private async forward(
    owner: RemoteOwner,
    taskId: string,
    kind: CommandKind,
    request: unknown,
    context: ServerCallContext,
  ): Promise<CommandReply & { ok: true }> {
    if (!owner.alive) throw goneError(kind, FLEET_TEXT.ownerGone(taskId, owner.instance));
    let reply: CommandReply;
    try {
      reply = await this.fleet.commands.forward(owner.instance, {
        taskId,
        kind,
        request,
        caller: snapshotCaller(context),
      });
    } catch (err) {
      if (!(err instanceof CommandNotAnswered)) throw err;
      switch (err.why) {
        case "gone":
          throw goneError(kind, FLEET_TEXT.ownerGone(taskId, owner.instance));
        case "timeout":
          throw new A2AError(
            FLEET_TEXT.ownerNotAnswering(taskId, owner.instance, this.fleet.commandTimeoutMs),
          );
      }
    }
    if (!reply.ok) throw replyError(reply);
    return reply;
  }

  /**
   * The relayed events of a subscription, ending like the owner's stream: at terminal or
   * input-required. When the table has nothing new for a poll and the stored task has ended (its
   * owner died and another instance failed it), the stored final status ends the stream.
   */
  private async *relayed(
    subscription: Subscription,
    taskId: string,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    let ended: Task | undefined;
    const stop = async () => {
      const task = await this.store.load(taskId, context);
      if (task === undefined || isTerminalState(task.status?.state)) ended = task;
      return ended !== undefined;
    };
    for await (const event of subscription.events(stop)) yield event;
    if (ended === undefined) return;
    // The owner's own last events, if they came meanwhile, say it best.
    for (const event of await subscription.drain()) {
      yield event;
      if (endsSubscription(event)) return;
    }
    const status = { taskId, contextId: ended.contextId, status: ended.status, metadata: {} };
    yield { payload: { $case: "statusUpdate", value: status } };
  }
}

function goneError(kind: CommandKind, message: string): Error {
  return kind === "cancel"
    ? new TaskNotCancelableError(message)
    : new UnsupportedOperationError(message);
}

const emptyConfiguration = () => SendMessageConfiguration.fromJSON({});
