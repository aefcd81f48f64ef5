/** The HTTP+JSON (REST) binding, the card's second interface, through the official client. */
import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions } from "@a2a-js/sdk/client";
import {
  a2a,
  collect,
  describeStream,
  resultOf,
  says,
  sendForTask,
  sendRequest,
  userMessage,
} from "../support/harness/index.js";

describe("A2A server: REST binding", () => {
  it("runs a task, streams one and reads it back over HTTP+JSON", async () => {
    const h = await a2a({
      rules: [says("Over REST", "Answered over REST."), says("Stream over REST", "Streamed.")],
    });
    const client = await new ClientFactory({
      ...ClientFactoryOptions.default,
      preferredTransports: ["HTTP+JSON"],
    }).createFromUrl(h.server.url);
    expect(client.transport.constructor.name).toMatch(/Rest/);

    const task = await sendForTask(client, userMessage("Over REST"));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultOf(task)).toBe("Answered over REST.");
    const events = await collect(
      client.sendMessageStream(
        sendRequest(userMessage("Stream over REST", { contextId: task.contextId })),
      ),
    );
    expect(describeStream(events).at(-1)).toBe("status:completed");
    const stored = await client.getTask({ tenant: "", id: task.id, historyLength: undefined });
    expect(stored.id).toBe(task.id);
    expect(h.spawns()).toBe(1);
    expect(h.bench.model.unmatched).toEqual([]);
  });
});
