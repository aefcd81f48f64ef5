/**
 * A long answer streams in linear time: the model's 20,000 deltas reach an A2A client as a few
 * coalesced appends (a count, not a time), and the text the client assembles is exact.
 */
import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { a2a, describeStream, reply, text } from "../support/harness/index.js";

describe("A2A streaming of a long answer (real runtime)", () => {
  it("20,000 model deltas arrive as far fewer events, and the assembled text is exact", async () => {
    const words = Array.from({ length: 20_000 }, (_, i) => String.fromCharCode(97 + (i % 26)));
    const answer = words.join("");
    const h = await a2a({
      rules: [
        {
          name: "long",
          match: { lastUserText: "Write a long answer" },
          reply: reply(text(answer), { chunkSize: 1 }),
        },
      ],
    });
    const events = await h.stream("Write a long answer");
    expect(describeStream(events).at(-1)).toBe("status:completed");
    // What a client assembles from the appends (before the closing chunk) is the whole text...
    let assembled = "";
    let closing = "";
    for (const e of events) {
      if (e.payload?.$case !== "artifactUpdate") continue;
      const update = e.payload.value;
      const content = update.artifact?.parts[0]?.content;
      const chunk = content?.$case === "text" ? content.value : "";
      if (update.lastChunk) closing = chunk;
      else assembled = update.append ? assembled + chunk : chunk;
    }
    expect(assembled).toBe(answer);
    expect(closing).toBe(answer);
    // ...and it came in far fewer events than the model's deltas.
    const appends = events.filter((e) => e.payload?.$case === "artifactUpdate").length;
    expect(appends).toBeLessThan(words.length / 20);
    const stored = await h.client.getTask({
      tenant: "",
      id: events[0]?.payload?.$case === "task" ? events[0].payload.value.id : "",
      historyLength: 0,
    });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(stored.artifacts[0]?.parts).toHaveLength(1);
  }, 120_000);
});
