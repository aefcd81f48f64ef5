/** Stale sessions and tasks across restarts, with the real runtime and the default SQLite store. */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { mappedKeyOf, readSessionMap, remapSession } from "../support/harness/session-map.js";
import {
  a2a,
  describeStream,
  listRequest,
  messageText,
  resultOf,
  resultText,
  says,
} from "../support/harness/index.js";

describe("durability: sessions and stored tasks", () => {
  it("a mapped session that no longer exists: the next message completes on a fresh session, and the map holds its id", async () => {
    const h = await a2a({
      rules: [
        says("Hello there", "Hi, nice to meet you."),
        says("Second message", "Fresh answer."),
      ],
    });
    const cwd = h.bench.sandbox.cwd;
    const first = await h.send("Hello there");
    expect(first.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const contextId = first.contextId;

    // The server stops; the context's session is now one the runtime has never seen (a deleted
    // transcript, another CLAUDE_CONFIG_DIR, a moved workspace).
    await h.server.close();
    const bogus = randomUUID();
    const key = mappedKeyOf(cwd, contextId);
    remapSession(cwd, contextId, bogus);
    await h.restart();

    const second = await h.stream("Second message", { contextId });
    expect(describeStream(second).at(-1)).toBe("status:completed");
    expect(resultText(second)).toBe("Fresh answer.");
    // The task's first status says the conversation started over, and why.
    const reset = second.flatMap((e) =>
      e.payload?.$case === "statusUpdate" &&
      e.payload.value.status?.message?.metadata?.kind === "session_reset"
        ? [e.payload.value.status.message]
        : [],
    );
    expect(reset).toHaveLength(1);
    expect(messageText(reset[0])).toContain(`(${bogus}) cannot be resumed`);
    // A fresh conversation: the model is not sent the earlier exchange.
    const request = h.bench.model.messageRequests.at(-1);
    expect(JSON.stringify(request?.body.messages)).not.toContain("Hi, nice to meet you.");
    await h.server.close();
    const after = readSessionMap(cwd).get(key)?.sessionId;
    expect(after).toBeDefined();
    expect(after).not.toBe(bogus);
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("tasks survive a restart in the SQLite store; ListTasks finds them by context", async () => {
    const h = await a2a({
      rules: [says("Keep this task", "Kept.")],
    });
    const first = await h.send("Keep this task");
    await h.restart();
    const stored = await h.client.getTask({ tenant: "", id: first.id, historyLength: undefined });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultOf(stored)).toBe("Kept.");
    const listed = await h.client.listTasks(listRequest(first.contextId));
    expect(listed.tasks.map((t) => t.id)).toEqual([first.id]);
  });
});
