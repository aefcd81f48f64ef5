import { randomUUID } from "node:crypto";
import type { Client } from "@a2a-js/sdk/client";
import { expect } from "vitest";
import { listRequest, sendRequest, userMessage } from "./harness.js";

/** What isolation tests share: every method that names a task, tried on another's task. */

/** Makes a request fail the same way whatever the id: the error's class and text, id masked. */
async function failure(id: string, call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return "no error";
  } catch (err) {
    const e = err as Error;
    return `${e.constructor.name}: ${e.message.split(id).join("<id>")}`;
  }
}

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream) void _;
}

/** The message the probes send to the task (its text; the context they name, if any). */
export interface ProbeMessage {
  readonly text?: string;
  readonly contextId?: string;
}

/** Every method that names a task, as `client` tries it on `id`. */
export function probes(
  client: Client,
  id: string,
  m: ProbeMessage = {},
): Record<string, () => Promise<unknown>> {
  const message = () => sendRequest(userMessage(m.text ?? "hello", { ...m, taskId: id }));
  return {
    getTask: () => client.getTask({ tenant: "", id, historyLength: undefined }),
    cancelTask: () => client.cancelTask({ tenant: "", id, metadata: undefined }),
    subscribe: () => drain(client.resubscribeTask({ tenant: "", id })),
    sendMessage: () => client.sendMessage(message()),
    sendStream: () => drain(client.sendMessageStream(message())),
    setPush: () =>
      client.createTaskPushNotificationConfig({
        tenant: "",
        id: "p1",
        taskId: id,
        url: "https://example.com/hook",
        token: "",
        authentication: undefined,
      }),
    getPush: () => client.getTaskPushNotificationConfig({ tenant: "", taskId: id, id: "p1" }),
    listPush: () =>
      client.listTaskPushNotificationConfig({
        tenant: "",
        taskId: id,
        pageSize: 10,
        pageToken: "",
      }),
    deletePush: () => client.deleteTaskPushNotificationConfig({ tenant: "", taskId: id, id: "p1" }),
  };
}

/** `other`'s task is, on `client`, exactly an unknown task, whatever the method. */
export async function expectUnknown(
  client: Client,
  otherTask: string,
  m: ProbeMessage = {},
): Promise<void> {
  const unknown = randomUUID();
  for (const [name, probe] of Object.entries(probes(client, otherTask, m))) {
    const onOther = await failure(otherTask, probe);
    const onUnknown = await failure(unknown, probes(client, unknown, m)[name] ?? probe);
    expect({ name, error: onOther }).toEqual({ name, error: onUnknown });
    expect(onOther).not.toBe("no error");
  }
}

export const ALL_TASKS = { ...listRequest(""), contextId: "" };
export const listed = async (client: Client) =>
  (await client.listTasks(ALL_TASKS)).tasks.map((t) => t.id).sort();
