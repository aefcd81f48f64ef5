import type {
  GetTaskRequest,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
} from "@a2a-js/sdk";
import { UnsupportedOperationError, type A2AErrorInfo } from "@a2a-js/sdk/errors";
import type { A2ARequestHandler, ServerCallContext } from "@a2a-js/sdk/server";
import {
  CURRENT_GENERATION_HEADER,
  GENERATION_MISMATCH,
  GENERATION_WAIT_MS,
  GENERATIONS_EXTENSION_URI,
  generationsRequested,
  IF_GENERATION_MATCH_KEY,
} from "../../contract/generations.js";
import { isTerminalState } from "../../contract/task-states.js";
import {
  generationMismatch,
  generationOf,
  parseGeneration,
  withItemGeneration,
  withTaskGeneration,
} from "./generations.js";
import { headerOf } from "./replay-request.js";
import { HandlerLayer } from "./handler-layer.js";

/**
 * v1.1's TaskGenerationMismatchError. The SDK knows no such error: it goes out as an
 * UnsupportedOperation, which each binding corrects by its text (`isGenerationMismatch`) to
 * -32010, HTTP 409 or gRPC ABORTED.
 */
export class GenerationMismatchError extends UnsupportedOperationError {
  constructor(message: string) {
    super(message);
    // The SDK maps an error to each binding's code by its name: this one's would be unknown.
    this.name = "UnsupportedOperationError";
  }

  override toErrorInfo(): A2AErrorInfo {
    return { ...super.toErrorInfo(), reason: GENERATION_MISMATCH.reason };
  }
}

export interface GenerationOptions {
  /** The longest a GetTask with `currentGeneration` waits (default `GENERATION_WAIT_MS`). */
  readonly waitMs?: number;
  /** How often it reads the task again meanwhile (default 200 ms). */
  readonly pollMs?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * A2A v1.1's task generations over the replaying handler (its `inner`), for a request that activates the
 * generations extension (`A2A-Extensions`); any other request is served exactly as before. A
 * generation is an event number, so this needs `replay.enabled`.
 */
export class GenerationsRequestHandler extends HandlerLayer {
  constructor(
    inner: A2ARequestHandler,
    private readonly g: GenerationOptions = {},
  ) {
    super(inner);
  }

  override async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    if (!activated(context)) return this.inner.sendMessage(params, context);
    await this.checkMatch(params, context);
    const result = await this.inner.sendMessage(params, context);
    return "status" in result ? withTaskGeneration(result) : result;
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    if (!activated(context)) return yield* this.inner.sendMessageStream(params, context);
    await this.checkMatch(params, context);
    for await (const item of this.inner.sendMessageStream(params, context)) {
      yield withItemGeneration(item);
    }
  }

  override async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    if (!activated(context)) return yield* this.inner.resubscribe(params, context);
    for await (const item of this.inner.resubscribe(params, context))
      yield withItemGeneration(item);
  }

  /**
   * With `currentGeneration`, the task once it has moved past it: at once if it has, else when
   * it does, or as it is after `waitMs` (or once it has ended: it will not move again).
   */
  override async getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    if (!activated(context)) return this.inner.getTask(params, context);
    const after = parseGeneration(
      "currentGeneration",
      headerOf(context, CURRENT_GENERATION_HEADER),
    );
    let task = await this.inner.getTask(params, context);
    if (after !== undefined) {
      const deadline = Date.now() + (this.g.waitMs ?? GENERATION_WAIT_MS);
      while ((generationOf(task) ?? 0) <= after && !isTerminalState(task.status?.state)) {
        if (Date.now() >= deadline) break;
        await sleep(this.g.pollMs ?? 200);
        task = await this.inner.getTask(params, context);
      }
    }
    return withTaskGeneration(task);
  }

  override async listTasks(
    params: ListTasksRequest,
    context: ServerCallContext,
  ): Promise<ListTasksResponse> {
    const listed = await this.inner.listTasks(params, context);
    if (!activated(context)) return listed;
    return { ...listed, tasks: listed.tasks.map(withTaskGeneration) };
  }

  /** Refuses a message to a task that has moved past its `ifGenerationMatch`. */
  private async checkMatch(params: SendMessageRequest, context: ServerCallContext) {
    const expected = parseGeneration(
      IF_GENERATION_MATCH_KEY,
      params.metadata?.[IF_GENERATION_MATCH_KEY],
    );
    const taskId = params.message?.taskId;
    if (expected === undefined || !taskId) return;
    const task = await this.inner.getTask({ tenant: params.tenant, id: taskId }, context);
    const why = generationMismatch(taskId, expected, generationOf(task));
    if (why !== undefined) throw new GenerationMismatchError(why);
  }
}

/** Whether the request activates the extension; if so, the answer names it back. */
function activated(context: ServerCallContext): boolean {
  if (!generationsRequested(context.requestedExtensions)) return false;
  context.addActivatedExtension(GENERATIONS_EXTENSION_URI);
  return true;
}
