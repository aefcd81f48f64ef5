import type {
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
} from "@a2a-js/sdk";
import { DefaultRequestHandler, type ServerCallContext } from "@a2a-js/sdk/server";
import { withStateWords } from "../../contract/task-states.js";

/** The error with its message's task states named by their words (`withStateWords`). */
function worded(err: unknown): unknown {
  if (err instanceof Error) err.message = withStateWords(err.message);
  return err;
}

/**
 * The SDK's request handler with its error texts naming task states by their words: its
 * refusals of a message to, or a subscription of, a task that has ended print the numeric enum
 * (`terminal state (3)`), which no client can read. Below every binding and every guard, so the
 * text is the same on JSON-RPC, HTTP+JSON, gRPC and v0.3.
 */
export class StateWordsHandler extends DefaultRequestHandler {
  override async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    try {
      return await super.sendMessage(params, context);
    } catch (err) {
      throw worded(err);
    }
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    try {
      yield* super.sendMessageStream(params, context);
    } catch (err) {
      throw worded(err);
    }
  }

  override async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    try {
      yield* super.resubscribe(params, context);
    } catch (err) {
      throw worded(err);
    }
  }
}
