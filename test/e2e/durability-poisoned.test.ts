/** A prompt the model API rejects (HTTP 400) must not poison the context's later messages. */
import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { a2a, messageText, resultOf, says } from "../support/harness/index.js";

describe("durability: poisoned conversations", () => {
  it("a prompt rejected with HTTP 400 fails its task, and the next message works without it", async () => {
    const h = await a2a({
      rules: [
        says("Remember the word kiwi", "Remembered."),
        { match: { lastUserText: "POISON" }, reply: { kind: "bad_request" } },
        says("Which word?", "The word was kiwi."),
      ],
    });
    const first = await h.send("Remember the word kiwi");
    const contextId = first.contextId;
    const poisoned = await h.send("POISON prompt", { contextId });
    expect(poisoned.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(messageText(poisoned.status?.message)).toContain("API Error: 400");
    expect(messageText(poisoned.status?.message)).toMatch(
      /^The model API rejected this prompt \(.*\); it was dropped from the conversation/,
    );

    const next = await h.send("Which word?", { contextId });
    expect(next.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultOf(next)).toBe("The word was kiwi.");
    // A new process, resumed at the answer before the rejected prompt.
    expect(h.spawns()).toBe(2);
    const request = h.bench.model.messageRequests.at(-1);
    const sent = JSON.stringify(request?.body.messages);
    expect(sent).toContain("Remembered.");
    expect(sent).not.toContain("POISON");
    expect(h.bench.model.unmatched).toEqual([]);
  }, 120_000);
});
