/** Building A2A requests and reading what comes back: the vocabulary every A2A test shares. */
import {
  Role,
  TaskState,
  type ListTasksRequest,
  type Message,
  type Part,
  type SendMessageRequest,
  type StreamResponse,
  type Task,
} from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { textPart } from "../../../src/contract/messages.js";
import { watch } from "../a2a/watch.js";

/** A text part, as the server builds them. */
export { textPart };

export function userMessage(
  parts: Part[] | string,
  ids: { taskId?: string; contextId?: string } = {},
): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId: ids.contextId ?? "",
    taskId: ids.taskId ?? "",
    role: Role.ROLE_USER,
    parts: typeof parts === "string" ? [textPart(parts)] : parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** ListTasks of one context, every state, newest first, with `historyLength` messages each. */
export const listRequest = (contextId: string, historyLength = 0) => ({
  tenant: "",
  contextId,
  status: TaskState.TASK_STATE_UNSPECIFIED,
  pageSize: 50,
  pageToken: "",
  historyLength,
  statusTimestampAfter: undefined,
  includeArtifacts: false,
});

/** ListTasks with no filter and every field left to the server's default. */
export const EVERY_TASK: ListTasksRequest = {
  tenant: "",
  contextId: "",
  status: TaskState.TASK_STATE_UNSPECIFIED,
  pageSize: undefined,
  pageToken: "",
  historyLength: undefined,
  statusTimestampAfter: undefined,
  includeArtifacts: undefined,
};

export function sendRequest(message: Message): SendMessageRequest {
  return { tenant: "", message, configuration: undefined, metadata: undefined };
}

/** Blocking SendMessage that must return a task. */
export async function sendForTask(client: Client, message: Message): Promise<Task> {
  const result = await client.sendMessage(sendRequest(message));
  if (!("id" in result) || !("status" in result)) throw new Error("expected a task, got a message");
  return result;
}

/** GetTask of `id` with the server's default history. */
export const getTask = (client: Client, id: string): Promise<Task> =>
  client.getTask({ tenant: "", id, historyLength: undefined });

/** Collects a whole stream. */
export async function collect(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

/** Streams `parts` as a new message (in the context/task of `ids`) and collects every event. */
export const streamMessage = (
  client: Client,
  parts: Part[] | string,
  ids: { taskId?: string; contextId?: string } = {},
): Promise<StreamResponse[]> =>
  collect(client.sendMessageStream(sendRequest(userMessage(parts, ids))));

/**
 * Streams `parts` as a new message (in the context/task of `ids`), read in the background: the
 * test waits for an event (`first`) and acts while the turn runs, then reads it all (`done`).
 */
export const watchMessage = (
  client: Client,
  parts: Part[] | string,
  ids: { taskId?: string; contextId?: string } = {},
) => watch(client.sendMessageStream(sendRequest(userMessage(parts, ids))));

/** The text of text parts, joined. */
export function partsText(parts: readonly Part[] | undefined): string {
  return (parts ?? [])
    .flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : []))
    .join("");
}

export const messageText = (message: Message | undefined): string => partsText(message?.parts);

/** The text of a task's `result` message (its answer). */
export const resultOf = (task: Task): string =>
  messageText(task.history.find((m) => m.metadata?.kind === "result"));

/** A compact, assertable view of a stream: one line per event. */
export function describeStream(events: readonly StreamResponse[]): string[] {
  return events.map((e) => {
    const p = e.payload;
    switch (p?.$case) {
      case "task":
        return `task:${stateName(p.value.status?.state)}`;
      case "message":
        return "message";
      case "statusUpdate": {
        const kind = (p.value.status?.message?.metadata as { kind?: string } | undefined)?.kind;
        return `status:${stateName(p.value.status?.state)}${kind ? `:${kind}` : ""}`;
      }
      case "artifactUpdate":
        return `artifact:${(p.value.artifact?.metadata as { kind?: string } | undefined)?.kind ?? "?"}`;
      case undefined:
        return "empty";
    }
  });
}

export function stateName(state: number | undefined): string {
  const names: Record<number, string> = {
    1: "submitted",
    2: "working",
    3: "completed",
    4: "failed",
    5: "canceled",
    6: "input-required",
    7: "rejected",
    8: "auth-required",
  };
  return state === undefined ? "none" : (names[state] ?? String(state));
}

/** The message of the error `call` throws ("no error" when it does not). */
export async function failure(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return "no error";
  } catch (err) {
    return (err as Error).message;
  }
}
