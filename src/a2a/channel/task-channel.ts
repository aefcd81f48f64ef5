import {
  AgentEvent,
  ResultManager,
  type AgentExecutionEvent,
  type ExecutionEventBus,
  type ExecutionEventBusManager,
  type PushNotificationSender,
  type ServerCallContext,
  type TaskStore,
} from "@a2a-js/sdk/server";
import {
  TaskState,
  type StreamResponse,
  type Task,
  type TaskArtifactUpdateEvent,
  type TaskStatusUpdateEvent,
} from "@a2a-js/sdk";
import type { Logger } from "pino";
import type { TaskRef } from "../../contract/messages.js";
import { isTerminalState } from "../../contract/task-states.js";
import type { ReplayLog } from "../../store/replay-log.js";
import { tellAttached } from "./attached.js";
import { isTerminalEvent, isPauseEvent, withEventNumber } from "./event-numbers.js";

export interface ChannelOptions {
  readonly ref: TaskRef;
  readonly store: TaskStore;
  readonly busManager: ExecutionEventBusManager;
  readonly logger: Logger;
  /**
   * Delivers what is stored here (no request attached) to the task's webhooks; what a request
   * stores, the SDK's handler delivers itself.
   */
  readonly push?: PushNotificationSender;
  /** Numbers every event and keeps it for replay (`replay.enabled`); unset: not numbered. */
  readonly replay?: ReplayLog;
}

/**
 * Everything one task publishes, over all its A2A turns, goes through its one channel:
 * - to the bus of the request attached to it (`attach`), whose SDK result manager stores it;
 * - once that request's stream has ended (at input-required, the SDK stops reading there), to
 *   the same bus for subscribers AND to the store directly, since no request stores it then;
 * - exactly one terminal status, then nothing: later events are dropped here (the SDK's result
 *   manager would still accept artifacts on a terminal task).
 */
/** A task store that may change a task already terminal (`TerminalTaskStore` drops such saves). */
export interface AmendingTaskStore extends TaskStore {
  amend(taskId: string, context: ServerCallContext, change: (task: Task) => Task): Promise<void>;
}

const isAmending = (store: TaskStore): store is AmendingTaskStore =>
  typeof (store as Partial<AmendingTaskStore>).amend === "function";

export class TaskChannel {
  readonly ref: TaskRef;
  private bus: ExecutionEventBus | undefined;
  private context: ServerCallContext | undefined;
  /** A request consumes the bus and stores what it carries. */
  private attached = false;
  private terminalState: TaskState | undefined;
  private results: ResultManager | undefined;
  private writes: Promise<void> = Promise.resolve();
  /** Gathered text that must go out before any other event of the task (keeps the order). */
  private readonly flushers = new Set<() => void>();
  /** The number of the task's last event (0: none yet). */
  private lastNumber = 0;
  /** The numbered copy of each status published, for `alsoOn` (the same event, the same number). */
  private readonly numbered = new WeakMap<object, AgentExecutionEvent>();

  constructor(private readonly options: ChannelOptions) {
    this.ref = options.ref;
  }

  /**
   * A task this channel takes over from a stored one (an answer after a restart): its events go
   * on from the stored task's last number (`metadata.eventNumber`), so replay never sees one twice.
   */
  continueFrom(lastNumber: unknown): void {
    if (typeof lastNumber === "number" && Number.isSafeInteger(lastNumber) && lastNumber > 0) {
      this.lastNumber = Math.max(this.lastNumber, lastNumber);
    }
  }

  get isTerminal(): boolean {
    return this.terminalState !== undefined;
  }

  /**
   * A request's `execute()` is attached: its bus carries the task's events from now on.
   * `messageId`: the request's message, whose send learns the task it reached.
   */
  attach(bus: ExecutionEventBus, context: ServerCallContext, messageId?: string): void {
    this.bus = bus;
    this.context = context;
    this.attached = true;
    this.results = undefined;
    // The send that attached learns its task (its idempotency key now answers with it).
    tellAttached(context.state, messageId, this.ref.taskId, this.lastNumber);
  }

  /** No request is attached (a task the server created): events go to the bus and the store. */
  attachDetached(bus: ExecutionEventBus, context: ServerCallContext): void {
    this.bus = bus;
    this.context = context;
    this.attached = false;
  }

  /** The call context of the task's caller (its owner, for the store's scoping). */
  get callContext(): ServerCallContext | undefined {
    return this.context;
  }

  /** Holds the writes of this channel until `ready` settles (e.g. push configs being copied). */
  deferWrites(ready: Promise<void>): void {
    this.writes = this.writes.then(() => ready).catch(() => undefined);
  }

  /** Resolves when every event published while no request was attached is stored. */
  flushed(): Promise<void> {
    return this.writes;
  }

  /** Registers text that is gathered before it is published; returns the unregistration. */
  holdsText(flush: () => void): () => void {
    this.flushers.add(flush);
    return () => this.flushers.delete(flush);
  }

  /** A chunk of gathered text: published as is (it is what the others flush). */
  textChunk(event: TaskArtifactUpdateEvent): void {
    if (this.dropped("artifact")) return;
    this.emit(AgentEvent.artifactUpdate(event));
  }

  task(task: Task): void {
    if (this.dropped("task")) return;
    this.emit(AgentEvent.task(task));
  }

  status(event: TaskStatusUpdateEvent): void {
    if (this.dropped("status")) return;
    this.flushText();
    const state = event.status?.state;
    if (isTerminalState(state)) this.terminalState = state;
    this.emit(AgentEvent.statusUpdate(event));
    if (state === TaskState.TASK_STATE_INPUT_REQUIRED) {
      // The request's stream ends here; the SDK keeps the bus for the answer and subscribers.
      this.attached = false;
    } else if (this.terminalState !== undefined && !this.attached) {
      // No execute() will settle this bus: end it, so subscribers' streams end too.
      this.bus?.finished();
      if (this.context !== undefined) {
        this.options.busManager.cleanupByTaskId(this.ref.taskId, this.context);
      }
    }
  }

  artifact(event: TaskArtifactUpdateEvent): void {
    if (this.dropped("artifact")) return;
    this.flushText();
    this.emit(AgentEvent.artifactUpdate(event));
  }

  private flushText(): void {
    for (const flush of [...this.flushers]) flush();
  }

  /** Also publishes a status on another bus (the one a cancel request waits on), if it differs. */
  alsoOn(bus: ExecutionEventBus, event: TaskStatusUpdateEvent): void {
    if (bus !== this.bus) bus.publish(this.numbered.get(event) ?? AgentEvent.statusUpdate(event));
  }

  /**
   * Changes the stored task after its terminal status (what a run that outlived it cost): past
   * every write of this channel, through a store that can amend a terminal task (else nothing).
   */
  amendStored(change: (task: Task) => Task): void {
    const context = this.context;
    const store = this.options.store;
    if (context === undefined || !isAmending(store)) return;
    this.writes = this.writes
      .then(() => store.amend(this.ref.taskId, context, change))
      .catch((err: unknown) =>
        this.options.logger.error({ err, taskId: this.ref.taskId }, "store amend failed"),
      );
  }

  private emit(original: AgentExecutionEvent): void {
    const event = this.number(original);
    this.bus?.publish(event);
    if (!this.attached) this.persist(event);
  }

  /** The event with the task's next number, kept for replay before anyone receives it. */
  private number(event: AgentExecutionEvent): AgentExecutionEvent {
    const replay = this.options.replay;
    if (replay === undefined || event.kind === "message") return event;
    const n = ++this.lastNumber;
    const numbered = withEventNumber(event, n);
    // A task that waits on its caller is written at once: a crash while it waits (for minutes,
    // maybe) keeps what led there, and restart recovery dates the task's usage from it.
    const ends = isTerminalEvent(numbered);
    replay.append(
      this.ref.taskId,
      n,
      streamResponseOf(numbered),
      ends,
      ends || isPauseEvent(numbered),
    );
    // Only a status is published again elsewhere (`alsoOn`).
    if (event.kind === "statusUpdate") this.numbered.set(event.data, numbered);
    return numbered;
  }

  private persist(event: AgentExecutionEvent): void {
    const context = this.context;
    if (context === undefined) return;
    const results = (this.results ??= new ResultManager(this.options.store, context));
    const push = this.options.push;
    this.writes = this.writes
      .then(async () => {
        await results.processEvent(event);
        // Fire and forget: a slow or failing webhook never holds the task (the sender retries).
        void push?.send(streamResponseOf(event), context, results.getCurrentTask());
      })
      .catch((err: unknown) =>
        this.options.logger.error({ err, taskId: this.ref.taskId }, "store write failed"),
      );
  }

  private dropped(what: string): boolean {
    if (this.terminalState === undefined) return false;
    this.options.logger.debug(
      { taskId: this.ref.taskId, what },
      "event after terminal status dropped",
    );
    return true;
  }
}

/** The stream item a client (or a webhook) receives for an event. */
export function streamResponseOf(event: AgentExecutionEvent): StreamResponse {
  switch (event.kind) {
    case "task":
      return { payload: { $case: "task", value: event.data } };
    case "statusUpdate":
      return { payload: { $case: "statusUpdate", value: event.data } };
    case "artifactUpdate":
      return { payload: { $case: "artifactUpdate", value: event.data } };
    case "message":
      return { payload: { $case: "message", value: event.data } };
  }
}
