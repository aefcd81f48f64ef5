/**
 * The runtime waking up by itself (a background job finished) while a client talks to the same
 * context: the A2A task sent during the wake gets its own answer, never the wake's text, and the
 * live session is not evicted while its background job runs.
 */
import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { a2a, describeStream, reply, resultText, says, text } from "../support/harness/index.js";
import { startJobRules } from "../support/a2a/background.js";

const WAKE_TEXT = "The background job has finished and here is a long report about it. ".repeat(4);

describe("A2A server: autonomous wake", () => {
  it("answers a task sent during the wake with its own text, in the same process", async () => {
    const h = await a2a({
      // An idle timeout shorter than the job: the session must survive it (background task).
      config: { sessions: { idleTimeoutMs: 100 } },
      rules: [
        ...startJobRules("sleep 1 && echo job-done"),
        says("Hello during the wake", "HELLO", "hello"),
        {
          name: "wake",
          match: { lastUserText: /<task-notification>/ },
          reply: reply(text(WAKE_TEXT), { chunkSize: 5, chunkDelayMs: 20 }),
        },
      ],
    });
    const first = await h.send("Start the job");
    expect(first.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    // The moment the wake's model request arrives, a client sends a new task to the context.
    await h.bench.model.waitForRequest((r) => r.lastUserText.includes("<task-notification>"));
    const events = await h.stream("Hello during the wake", { contextId: first.contextId });
    expect(describeStream(events).at(-1)).toBe("status:completed");
    expect(resultText(events)).toBe("HELLO");
    // No text of the wake leaked into this task.
    const streamed = events
      .flatMap((e) =>
        e.payload?.$case === "artifactUpdate" ? [JSON.stringify(e.payload.value)] : [],
      )
      .join("");
    expect(streamed).not.toContain("background job has finished");
    // The wake had begun when the task arrived; the task was answered after it.
    expect(h.bench.model.requests.map((r) => r.rule)).toEqual([
      "start-job",
      "started",
      "wake",
      "hello",
    ]);
    expect(h.spawns()).toBe(1);
    expect(h.bench.model.unmatched).toEqual([]);
  });
});
