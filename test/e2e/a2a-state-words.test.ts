/**
 * Error texts name a task's state by its word, never the wire number, on every binding, the
 * SDK's own refusals included: a message to, and a subscription of, a completed task.
 */
import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { a2a, collect, failure, says, sendRequest, userMessage } from "../support/harness/index.js";

const TIMEOUT = 120_000;

describe("state names in errors", () => {
  it(
    "says `completed` when a completed task is sent to or subscribed, on all three bindings",
    async () => {
      const h = await a2a({ rules: [says("Hello", "Hi.", "hello")], grpc: true });
      const task = await h.send("Hello");
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      for (const transport of ["JSONRPC", "HTTP+JSON", "GRPC"] as const) {
        const client = await h.connect({ transport });
        const ids = { taskId: task.id, contextId: task.contextId };
        const sent = await failure(() =>
          client.sendMessage(sendRequest(userMessage("Hello", ids))),
        );
        expect(sent, transport).toContain(
          `Task ${task.id} is in a terminal state (completed) and cannot be modified.`,
        );
        const subscribed = await failure(() =>
          collect(client.resubscribeTask({ tenant: "", id: task.id })),
        );
        expect(subscribed, transport).toContain(
          `Task ${task.id} is in a terminal state (completed) and cannot be subscribed to.`,
        );
        expect(`${sent} ${subscribed}`, transport).not.toMatch(/state \(\d+\)/);
      }
    },
    TIMEOUT,
  );
});
