import { describe, expect, it } from "vitest";
import { Normalizer } from "../../../src/claude/normalize.js";
import {
  KEPT_ENTRIES,
  TimelineAssembler,
  type TimelineEntry,
} from "../../../src/claude/timeline.js";
import { silentLogger } from "./support/helpers.js";
import { historyExchange, openText, sdk, streamedText } from "./support/sdk-messages.js";

function assembler() {
  const n = new Normalizer();
  const updates: TimelineEntry[] = [];
  const t = new TimelineAssembler(silentLogger, (e) => updates.push(e));
  const feed = (runId: string | undefined, ...frames: unknown[]) => {
    for (const f of frames) t.apply(n.normalize(f), runId);
  };
  return { t, feed, updates };
}

describe("TimelineAssembler", () => {
  it("assembles a streamed message keyed by its message id and finalizes it on message_stop", () => {
    const { t, feed } = assembler();
    feed("run-1", ...openText("m1"), sdk.textDelta(0, "Hel"), sdk.textDelta(0, "lo"));
    expect(t.get("m1")).toMatchObject({ text: "Hello", status: "streaming", runId: "run-1" });
    feed("run-1", sdk.blockStop(0), sdk.messageStop());
    expect(t.get("m1")?.status).toBe("complete");
  });

  it("holds deltas that arrive before message_start and reconciles them", () => {
    const { t, feed } = assembler();
    feed("run-1", sdk.textDelta(0, "early "));
    expect(t.snapshot()).toMatchObject([
      { kind: "assistant", messageId: undefined, status: "placeholder" },
    ]);
    feed("run-1", sdk.messageStart("m1"), sdk.textDelta(0, "late"), sdk.messageStop());
    expect(t.snapshot()).toEqual([
      expect.objectContaining({ messageId: "m1", text: "early late", status: "complete" }),
    ]);
  });

  it("keeps everything from complete frames when partial messages are off", () => {
    const { t, feed } = assembler();
    feed(
      undefined,
      sdk.text("m1", "thinking about it"),
      sdk.toolUse("m1", "tu1", "Bash", { command: "ls" }),
      sdk.text("m2", "done"),
    );
    expect(t.snapshot()).toMatchObject([
      {
        messageId: "m1",
        content: [
          { type: "text", text: "thinking about it" },
          { type: "tool_use", id: "tu1", input: { command: "ls" } },
        ],
      },
      { messageId: "m2", text: "done" },
    ]);
  });

  it("reconciles complete frames with streamed blocks without duplicating text", () => {
    const { t, feed } = assembler();
    // Complete frame first, stream afterwards: the stream must not append a second copy.
    feed(
      "r",
      sdk.text("m1", "Hello"),
      sdk.messageStart("m1"),
      sdk.textDelta(0, "Hello"),
      sdk.messageStop(),
    );
    expect(t.get("m1")?.text).toBe("Hello");
    // Stream first, then the complete frame (authoritative, e.g. after a cut stream).
    feed(
      "r",
      sdk.messageStart("m2"),
      sdk.textDelta(0, "Hel"),
      sdk.text("m2", "Hello!"),
      sdk.messageStop(),
    );
    expect(t.get("m2")?.text).toBe("Hello!");
  });

  it("builds a streamed tool use from input_json deltas", () => {
    const { t, feed } = assembler();
    feed(
      "r",
      sdk.messageStart("m1"),
      sdk.blockStart(0, { type: "tool_use", id: "tu1", name: "Write", input: {} }),
      sdk.stream({
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: '{"file_path":' },
      }),
      sdk.stream({
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: '"a.txt"}' },
      }),
      sdk.blockStop(0),
    );
    expect(t.get("m1")?.content).toEqual([
      { type: "tool_use", id: "tu1", name: "Write", input: { file_path: "a.txt" } },
    ]);
  });

  it("marks aborted messages and keeps entries whoever owns them, in order of first appearance", () => {
    const { t, feed } = assembler();
    t.addUserPrompt("u1", "hello", "run-fg");
    feed("run-fg", sdk.messageStart("m1"), sdk.textDelta(0, "par"));
    feed(
      "run-auto",
      sdk.messageStart("m2", { parent: "tu9" }),
      sdk.textDelta(0, "sub", { parent: "tu9" }),
    );
    feed(undefined, sdk.text("m3", "unowned"));
    feed("run-fg", sdk.text("m1", "par", { aborted: true }));
    const snap = t.snapshot();
    expect(snap.map((e) => (e.kind === "user" ? e.uuid : e.messageId))).toEqual([
      "u1",
      "m1",
      "m2",
      "m3",
    ]);
    expect(snap[1]).toMatchObject({ status: "aborted", runId: "run-fg" });
    expect(snap[2]).toMatchObject({ runId: "run-auto", parentToolUseId: "tu9", text: "sub" });
    expect(snap[3]).toMatchObject({ text: "unowned" });
  });

  it("puts resumed history first, whenever it arrives", () => {
    const { t, feed } = assembler();
    feed("r", sdk.text("live-1", "live"));
    t.seedHistory([
      ...historyExchange(
        { uuid: "h-u1", text: "old question" },
        { uuid: "h-a1", messageId: "old-1", text: "old answer" },
      ),
      {
        type: "user",
        uuid: "h-u2",
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "x", content: "r" }],
        },
        parent_tool_use_id: null,
      },
    ]);
    expect(t.snapshot()).toMatchObject([
      { kind: "user", uuid: "h-u1", text: "old question", source: "history" },
      {
        kind: "assistant",
        messageId: "old-1",
        text: "old answer",
        source: "history",
        uuids: ["h-a1"],
      },
      { kind: "assistant", messageId: "live-1", source: "live" },
    ]);
  });

  it("seeds history without an update per entry", () => {
    const { t, updates } = assembler();
    t.seedHistory(
      historyExchange(
        { uuid: "h-u1", text: "old question" },
        { uuid: "h-a1", messageId: "old-1", text: "old answer" },
      ),
    );
    expect(t.snapshot()).toHaveLength(2);
    expect(updates).toEqual([]);
  });

  it("read after live turns, takes the transcript only up to the first live prompt", () => {
    const { t, feed } = assembler();
    t.addUserPrompt("p1", "live question", "r");
    feed("r", sdk.text("live-1", "live answer"));
    t.seedHistory([
      ...historyExchange(
        { uuid: "h-u1", text: "old question" },
        { uuid: "h-a1", messageId: "old-1", text: "old answer" },
      ),
      // The rest is what this process wrote: a wake's notification is not history.
      ...historyExchange(
        { uuid: "p1", text: "live question" },
        { uuid: "h-a2", messageId: "live-1", text: "live answer" },
      ),
      ...historyExchange(
        { uuid: "wake", text: "<task-notification>" },
        { uuid: "h-a3", messageId: "live-2", text: "woke" },
      ),
    ]);
    expect(t.snapshot().map((e) => [e.source, e.text])).toEqual([
      ["history", "old question"],
      ["history", "old answer"],
      ["live", "live question"],
      ["live", "live answer"],
    ]);
  });

  it("trims the oldest finished entries past KEPT_ENTRIES, never a streaming one or an active run's", () => {
    const { t, feed } = assembler();
    feed("r-active", ...openText("streaming-1"), sdk.textDelta(0, "still going"));
    t.addUserPrompt("u-active", "active prompt", "r-active");
    for (let i = 0; i < KEPT_ENTRIES; i++) feed(`r${i}`, sdk.text(`done-${i}`, `done ${i}`));
    t.trim((runId) => runId === "r-active");
    const kept = t.snapshot();
    expect(t.trimmed).toBe(true);
    expect(kept.length).toBeLessThan(KEPT_ENTRIES);
    expect(kept.slice(0, 2).map((e) => e.text)).toEqual(["still going", "active prompt"]);
    expect(kept.at(-1)?.text).toBe(`done ${KEPT_ENTRIES - 1}`);
  });

  it("publishes every update but a delta's: the next frame carries the text the deltas added", () => {
    const { feed, updates } = assembler();
    feed("r", ...streamedText("m1", ["a", "b"]), sdk.messageStop());
    const seen = updates.map((u) => (u.kind === "assistant" ? [u.status, u.text] : [u.kind]));
    expect(seen).toEqual([
      ["streaming", ""], // message_start
      ["streaming", ""], // content_block_start
      ["streaming", "ab"], // content_block_stop: the deltas' text
      ["complete", "ab"], // message_stop
    ]);
  });

  it("announces an entry a delta opens, before its message_start", () => {
    const { feed, updates } = assembler();
    feed("r", sdk.textDelta(0, "early"), sdk.textDelta(0, " more"));
    expect(updates).toEqual([expect.objectContaining({ status: "placeholder", text: "early" })]);
  });

  it("hands out copies: an update published earlier does not grow with later deltas", () => {
    const { t, feed, updates } = assembler();
    feed("r", ...openText("m1"));
    feed("r", sdk.textDelta(0, "a"), sdk.blockStop(0));
    const before = t.get("m1");
    feed("r", sdk.textDelta(0, "b"));
    expect(updates.at(-1)?.kind === "assistant" && updates.at(-1)).toMatchObject({
      content: [{ type: "text", text: "a" }],
    });
    expect(before).toMatchObject({ text: "a", content: [{ type: "text", text: "a" }] });
    expect(t.get("m1")?.text).toBe("ab");
  });

  it("leaves the normalized event's own block alone while deltas grow the entry's", () => {
    const n = new Normalizer();
    const t = new TimelineAssembler(silentLogger);
    const start = n.normalize(sdk.blockStart(0, { type: "text", text: "" }));
    t.apply(n.normalize(sdk.messageStart("m1")), "r");
    t.apply(start, "r");
    t.apply(n.normalize(sdk.textDelta(0, "grown")), "r");
    expect(start).toMatchObject({ part: { block: { type: "text", text: "" } } });
    expect(t.get("m1")?.text).toBe("grown");
  });
});

describe("TimelineAssembler: idempotence", () => {
  it("ignores a complete frame it has already merged", () => {
    const { t } = assembler();
    const frame = new Normalizer().normalize(sdk.text("m1", "once"));
    t.apply(frame, "r");
    t.apply(frame, "r");
    expect(t.get("m1")?.text).toBe("once");
  });
});
