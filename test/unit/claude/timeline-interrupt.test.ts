import { describe, expect, it } from "vitest";
import { Normalizer } from "../../../src/claude/normalize.js";
import { TimelineAssembler } from "../../../src/claude/timeline.js";
import { silentLogger } from "./support/helpers.js";
import { sdk, streamedText } from "./support/sdk-messages.js";

function assembler() {
  const n = new Normalizer();
  const t = new TimelineAssembler(silentLogger);
  const feed = (runId: string, ...frames: unknown[]) => {
    for (const f of frames) t.apply(n.normalize(f), runId);
  };
  return { t, feed };
}

describe("TimelineAssembler after an interrupt", () => {
  it("marks a message cut off before any complete frame aborted, not complete", () => {
    const { t, feed } = assembler();
    // Interrupted before any text: the runtime still closes the stream with a message_stop.
    feed("run-wake", sdk.messageStart("m-cut"), sdk.messageStop());
    expect(t.get("m-cut")?.status).toBe("complete");
    t.markRunInterrupted("run-wake");
    expect(t.get("m-cut")?.status).toBe("aborted");
  });

  it("leaves the run's finished messages and other runs' messages alone", () => {
    const { t, feed } = assembler();
    feed(
      "run-wake",
      ...streamedText("m-done", ["Finished."]),
      sdk.assistant("m-done", [{ type: "text", text: "Finished." }]),
      sdk.messageStop(),
    );
    feed("run-other", sdk.messageStart("m-other"), sdk.messageStop());
    t.markRunInterrupted("run-wake");
    expect(t.get("m-done")?.status).toBe("complete");
    expect(t.get("m-other")?.status).toBe("complete");
  });
});
