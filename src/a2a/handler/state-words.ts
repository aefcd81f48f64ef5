import type {
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
} from "@a2a-js/sdk";
import type { ServerCallContext } from "@a2a-js/sdk/server";
import { withStateWords } from "../../contract/task-states.js";
import { HandlerLayer } from "./handler-layer.js";

/** The error with its message's task states named by their words (`withStateWords`). */
function worded(err: unknown): unknown {
  if (err instanceof Error) err.message = withStateWords(err.message);
  return err;
}

/**
 * The SDK's request handler with its error texts naming task states by their words: its
 * refusals of a message to, or a subscription of, a task that has ended print the numeric enum
 * (`terminal state (3)`), which no client can read. Right over the SDK's handler, below every
 * binding and every guard, so the text is the same on JSON-RPC, HTTP+JSON, gRPC and v0.3.
 */
export class StateWordsHandler extends HandlerLayer {
  override async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    try {
      return await this.inner.sendMessage(params, context);
    } catch (err) {
      throw worded(err);
    }
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    try {
      yield* this.inner.sendMessageStream(params, context);
    } catch (err) {
      throw worded(err);
    }
  }

  override async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    try {
      yield* this.inner.resubscribe(params, context);
    } catch (err) {
      throw worded(err);
    }
  }
}
