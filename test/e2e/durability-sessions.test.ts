/** Stale sessions and tasks across restarts, with the real runtime and the default SQLite store. */
import { randomUUID } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { parseConversationKey } from "../../src/identity/conversation.js";
import { SESSIONS_FILE } from "../../src/store/session-map.js";
import {
  a2a,
  describeStream,
  listRequest,
  messageText,
  resultOf,
  resultText,
  says,
} from "../support/harness/index.js";

interface MapFile {
  version: 1;
  sessions: Record<string, { sessionId: string; updatedAt: string }>;
}
const readMap = async (cwd: string) =>
  JSON.parse(await readFile(join(cwd, SESSIONS_FILE), "utf8")) as MapFile;
/** The map's key of this context's conversation (the map is keyed by caller and context). */
const keyOf = (map: MapFile, contextId: string): string => {
  const key = Object.keys(map.sessions).find(
    (k) => parseConversationKey(k)?.contextId === contextId,
  );
  if (key === undefined) throw new Error(`no session-map entry for context ${contextId}`);
  return key;
};

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
    const map = await readMap(cwd);
    const key = keyOf(map, contextId);
    map.sessions[key] = { sessionId: bogus, updatedAt: new Date().toISOString() };
    await writeFile(join(cwd, SESSIONS_FILE), JSON.stringify(map));
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
    const after = (await readMap(cwd)).sessions[key]?.sessionId;
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
