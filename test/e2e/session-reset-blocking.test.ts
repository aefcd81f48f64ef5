/**
 * `session_reset` reaches a blocking client: after the context's session went stale, the task a
 * blocking SendMessage returns has the notice in its history (before the answer), and so does
 * GetTask later (docs/tasks.md#sessions: it stays in the history).
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Role, TaskState, type Message } from "@a2a-js/sdk";
import { remapSession } from "../support/harness/session-map.js";
import { a2a, messageText, says } from "../support/harness/index.js";

const kinds = (history: readonly Message[]) =>
  history.map((m) => String(m.metadata?.kind ?? (m.role === Role.ROLE_USER ? "user" : "agent")));

describe("session_reset for a blocking client", () => {
  it("a blocking SendMessage after a stale session returns the notice in the task's history", async () => {
    const h = await a2a({
      rules: [says("Hello there", "Hi."), says("Second message", "Fresh answer.")],
    });
    const cwd = h.bench.sandbox.cwd;
    const first = await h.send("Hello there");
    const { contextId } = first;
    await h.server.close();
    // The context's session is one the runtime has never seen (a deleted transcript).
    const bogus = randomUUID();
    remapSession(cwd, contextId, bogus);
    await h.restart();

    const second = await h.send("Second message", { contextId });
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(kinds(second.history)).toEqual(["user", "session_reset", "result"]);
    const notice = second.history.find((m) => m.metadata?.kind === "session_reset");
    expect(messageText(notice)).toContain(`(${bogus}) cannot be resumed`);
    const stored = await h.client.getTask({ tenant: "", id: second.id, historyLength: undefined });
    expect(kinds(stored.history)).toEqual(["user", "session_reset", "result"]);
    expect(h.bench.model.unmatched).toEqual([]);
  });
});
