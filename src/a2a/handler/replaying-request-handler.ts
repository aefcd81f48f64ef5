import {
  TaskState,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type Task,
} from "@a2a-js/sdk";
import { UnsupportedOperationError } from "@a2a-js/sdk/errors";
import type { A2ARequestHandler, ServerCallContext } from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import { ownerOf } from "../../identity/conversation.js";
import type { ReplayLog, SentMessage } from "../../store/replay-log.js";
import { isTerminalState } from "../../contract/task-states.js";
import { REPLAY_TEXT, SSE_EVENT_NUMBER_STATE_KEY } from "../../contract/replay.js";
import { eventNumberOf, endsStream } from "../channel/event-numbers.js";
import { awaitAttach } from "../channel/attached.js";
import { HandlerLayer } from "./handler-layer.js";
import { cursorOf, idempotencyKeyOf, numberInMetadata } from "./replay-request.js";
import { replayEvents } from "./replay-stream.js";

export interface ReplayHandlerOptions {
  readonly log: ReplayLog;
  /** The agent's workspace ("" at the root): an idempotency key's scope with the tenant. */
  readonly workspace: string;
  readonly logger: Logger;
}

/** How long a retry waits for the send it repeats to reach its task (the guard's checks). */
const IN_FLIGHT_WAIT_MS = 30_000;

interface InFlight {
  readonly owner: string;
  readonly sent: Promise<SentMessage | undefined>;
}

/**
 * The request handler as the bindings see it (docs/reliability.md): every stream item's number
 * for the SSE `id:`; SubscribeToTask (and a retried streaming send) from a cursor: exactly the
 * kept events after it, then the live ones, nothing twice; and idempotent sends: a key the same
 * caller already sent answers with that send's task and starts nothing, another caller's is a
 * conflict. Everything else goes to the inner handler (the guards, operators, the fleet) as is.
 */
export class ReplayingRequestHandler extends HandlerLayer {
  private readonly inFlight = new Map<string, InFlight>();

  constructor(
    inner: A2ARequestHandler,
    private readonly o: ReplayHandlerOptions,
  ) {
    super(inner);
  }

  override async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    const earlier = await this.earlierSend(params, context);
    if (earlier.kind === "repeat") return this.answerAgain(earlier.sent, params, context);
    try {
      return await this.inner.sendMessage(params, context);
    } finally {
      earlier.done();
    }
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const earlier = await this.earlierSend(params, context);
    if (earlier.kind === "repeat") {
      const cursor = cursorOf(context, params.metadata) ?? earlier.sent.after;
      yield* this.fromCursor({ tenant: params.tenant, id: earlier.sent.taskId }, cursor, context);
      return;
    }
    try {
      yield* this.numbered(this.inner.sendMessageStream(params, context), context);
    } finally {
      earlier.done();
    }
  }

  override async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    yield* this.fromCursor(params, cursorOf(context, undefined), context);
  }

  /**
   * The kept events of a task after `cursor`, then its live ones (`replay-stream.ts`); without a
   * cursor, its snapshot first, as the SDK's subscribe, and what follows it.
   */
  private fromCursor(
    params: SubscribeToTaskRequest,
    cursor: number | undefined,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.numbered(
      replayEvents({
        taskId: params.id,
        cursor,
        log: this.o.log,
        task: () => this.inner.getTask({ tenant: params.tenant, id: params.id }, context),
        live: () => this.inner.resubscribe(params, context),
      }),
      context,
    );
  }

  /**
   * The items of a stream, each one's number left for the SSE writer; an item whose number is
   * not past the last one's is a repeat (a snapshot and the live queue overlapping) and dropped.
   */
  private async *numbered(
    stream: AsyncGenerator<StreamResponse, void, undefined>,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    let last = 0;
    try {
      for await (const item of stream) {
        const n = eventNumberOf(item) ?? numberOfSnapshot(item);
        if (n !== undefined && n <= last && item.payload?.$case !== "task") continue;
        if (n !== undefined) last = Math.max(last, n);
        context.state.set(SSE_EVENT_NUMBER_STATE_KEY, n);
        yield item;
      }
    } finally {
      context.state.delete(SSE_EVENT_NUMBER_STATE_KEY);
    }
  }

  /**
   * What an earlier send with this request's key says: nothing (this send goes ahead, `done`
   * called when it ends), or the earlier send to answer again. Another caller's key: a conflict.
   */
  private async earlierSend(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<{ kind: "new"; done(): void } | { kind: "repeat"; sent: SentMessage }> {
    const none = { kind: "new" as const, done: () => undefined };
    const key = idempotencyKeyOf(context, params.message);
    if (key === undefined) return none;
    // No NUL: PostgreSQL text cannot hold it.
    const scope = `${this.o.workspace}\u001f${context.tenant ?? ""}`;
    const id = `${scope}\u0000${key}`;
    const owner = ownerOf(context);
    const pending = this.inFlight.get(id);
    const sent =
      pending === undefined
        ? await this.o.log.findSend(scope, key)
        : ((pending.owner === owner ? await withTimeout(pending.sent) : undefined) ??
          (pending.owner === owner ? undefined : { owner: pending.owner, taskId: "", after: 0 }));
    if (sent !== undefined) {
      if (sent.owner !== owner) throw new UnsupportedOperationError(REPLAY_TEXT.conflict(key));
      return { kind: "repeat", sent };
    }
    // This send goes ahead: a retry meanwhile waits for it to reach its task.
    let resolve!: (sent: SentMessage | undefined) => void;
    const reached = new Promise<SentMessage | undefined>((r) => (resolve = r));
    this.inFlight.set(id, { owner, sent: reached });
    const forget = awaitAttach(context.state, params.message?.messageId ?? "", (taskId, after) => {
      const record = { owner, taskId, after };
      this.o.log.recordSend(scope, key, record);
      resolve(record);
    });
    return {
      kind: "new",
      done: () => {
        forget();
        resolve(undefined);
        if (this.inFlight.get(id)?.sent === reached) this.inFlight.delete(id);
      },
    };
  }

  /**
   * A blocking send repeated: its task as it is, once it has stopped (terminal or waiting for
   * input again); `returnImmediately`: as it is now.
   */
  private async answerAgain(
    sent: SentMessage,
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Task> {
    const get = () =>
      this.inner.getTask(
        {
          tenant: params.tenant,
          id: sent.taskId,
          ...(params.configuration?.historyLength !== undefined && {
            historyLength: params.configuration.historyLength,
          }),
        },
        context,
      );
    const task = await get();
    if (params.configuration?.returnImmediately === true || stopped(task, sent)) return task;
    const cursor = numberInMetadata(task.metadata) ?? sent.after;
    for await (const item of this.fromCursor(
      { tenant: params.tenant, id: sent.taskId },
      cursor,
      context,
    )) {
      if (endsStream(item)) break;
    }
    return get();
  }
}

/** A snapshot's number: the last event its stored task reflects. */
function numberOfSnapshot(item: StreamResponse): number | undefined {
  return item.payload?.$case === "task" ? numberInMetadata(item.payload.value.metadata) : undefined;
}

/** Whether a repeated send's task has stopped since that send: ended, or asking again. */
function stopped(task: Task, sent: SentMessage): boolean {
  const state = task.status?.state;
  if (isTerminalState(state)) return true;
  const interrupted =
    state === TaskState.TASK_STATE_INPUT_REQUIRED || state === TaskState.TASK_STATE_AUTH_REQUIRED;
  // An answer's first event re-sends the task as it was (still input-required): not yet moved.
  return interrupted && (numberInMetadata(task.metadata) ?? 0) > sent.after + 1;
}

function withTimeout<T>(promise: Promise<T | undefined>): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(undefined), IN_FLIGHT_WAIT_MS);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
