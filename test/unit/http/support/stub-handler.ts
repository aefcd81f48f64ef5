/** What the HTTP tests' stub request handlers share: the card they serve and a working task. */
import {
  Role,
  TaskState,
  type AgentCard,
  type Message,
  type StreamResponse,
  type Task,
} from "@a2a-js/sdk";
import type { A2ARequestHandler } from "@a2a-js/sdk/server";
import { UnsupportedOperationError } from "@a2a-js/sdk/errors";
import { buildAgentCard } from "../../../../src/a2a/card/agent-card.js";
import { resolveConfig } from "../../../../src/config/load.js";

export const card = buildAgentCard(resolveConfig({}, { file: "test.json", startDir: "/work" }), {
  version: "0.0.0",
});

export const V1 = { "A2A-Version": "1.0" };
export const JSON_V1 = { ...V1, "content-type": "application/json" };

export const unsupported = (): never => {
  throw new UnsupportedOperationError("not in this stub");
};

/** A task in WORKING with nothing in it. */
export const workingTask = (id: string): Task => ({
  id,
  contextId: "ctx-1",
  status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: "" },
  artifacts: [],
  history: [],
  metadata: {},
});

/** The agent's one-part "ok" answer to a SendMessage (its part's metadata as the binding needs). */
export const okReply = (partMetadata?: Record<string, never>): Message => ({
  messageId: "reply-1",
  contextId: "ctx-1",
  taskId: "",
  role: Role.ROLE_AGENT,
  parts: [
    {
      content: { $case: "text", value: "ok" },
      mediaType: "",
      filename: "",
      metadata: partMetadata,
    },
  ],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

/** A request handler that supports nothing but its card: each stub overrides what its tests call. */
export class UnsupportedHandler implements A2ARequestHandler {
  getAgentCard(): Promise<AgentCard> {
    return Promise.resolve(card);
  }
  getTask(..._args: unknown[]): Promise<Task> {
    return unsupported();
  }
  sendMessage(..._args: unknown[]): Promise<Message | Task> {
    return unsupported();
  }
  sendMessageStream(..._args: unknown[]): AsyncGenerator<StreamResponse, void, undefined> {
    return unsupported();
  }
  resubscribe(..._args: unknown[]): AsyncGenerator<StreamResponse, void, undefined> {
    return unsupported();
  }
  getAuthenticatedExtendedAgentCard = unsupported;
  cancelTask = unsupported;
  createTaskPushNotificationConfig = unsupported;
  getTaskPushNotificationConfig = unsupported;
  listTaskPushNotificationConfigs = unsupported;
  deleteTaskPushNotificationConfig = unsupported;
  listTasks = unsupported;
}
