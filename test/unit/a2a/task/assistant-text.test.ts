import type { TaskArtifactUpdateEvent } from "@a2a-js/sdk";
import { beforeEach, describe, expect, it } from "vitest";
import { AssistantTextArtifact } from "../../../../src/a2a/task/assistant-text.js";
import type {
  AssistantEvent,
  BlockDelta,
  ContentBlock,
  StreamEvent,
  StreamPart,
} from "../../../../src/claude/normalized-event.js";

const ref = { taskId: "task-1", contextId: "ctx-1" };
const ARTIFACT_ID = "assistant-text-1";

const stream = (part: StreamPart, parentToolUseId: string | null = null): StreamEvent => ({
  kind: "stream",
  streamKey: parentToolUseId ?? "main",
  messageId: part.type === "message_start" ? part.messageId : undefined,
  parentToolUseId,
  userMessageUuids: [],
  part,
});
const start = (messageId: string, parent: string | null = null) =>
  stream({ type: "message_start", messageId }, parent);
const delta = (d: BlockDelta, parent: string | null = null) =>
  stream({ type: "content_block_delta", index: 0, delta: d }, parent);
const textDelta = (text: string, parent: string | null = null) =>
  delta({ type: "text", text }, parent);
const assistant = (
  messageId: string,
  content: ContentBlock[],
  parentToolUseId: string | null = null,
): AssistantEvent => ({
  kind: "assistant",
  messageId,
  parentToolUseId,
  content,
  aborted: false,
  userMessageUuids: [],
});
const textBlock = (text: string): ContentBlock => ({ type: "text", text });
const toolUse: ContentBlock = { type: "tool_use", id: "tu-1", name: "Bash", input: {} };

let published: TaskArtifactUpdateEvent[];
let art: AssistantTextArtifact;
beforeEach(() => {
  published = [];
  art = new AssistantTextArtifact(ref, ARTIFACT_ID, (e) => published.push(e));
});

/** Feeds the artifact these events, then finishes it (the run's result). */
const play = (...events: Parameters<AssistantTextArtifact["onEvent"]>[0][]) => {
  for (const e of events) art.onEvent(e);
  art.finish();
};

/** Each publish as [text, append, lastChunk]. */
const chunks = () =>
  published.map((e) => {
    const content = e.artifact?.parts[0]?.content;
    return [content?.$case === "text" ? content.value : content, e.append, e.lastChunk];
  });

describe("AssistantTextArtifact", () => {
  it("leaves out the runtime's own message about a failed login: the failed status explains it", () => {
    art.onEvent({
      ...assistant("m1", [textBlock("Not logged in · Please run /login")]),
      error: "authentication_failed",
      cause: "authentication_failed",
    });
    // A rejected prompt still shows the runtime's text: it says what the API refused.
    play({
      ...assistant("m2", [textBlock("API Error: 400 bad")]),
      error: "invalid_request",
      cause: "prompt_rejected",
    });
    expect(chunks()).toEqual([
      ["API Error: 400 bad", false, false],
      ["API Error: 400 bad", false, true],
    ]);
  });

  it("streams main-thread deltas as chunks of one artifact: open, then append", () => {
    art.onEvent(start("m1"));
    art.onEvent(textDelta("Hel"));
    art.onEvent(textDelta("lo"));
    art.onEvent(textDelta(" world"));
    expect(chunks()).toEqual([
      ["Hel", false, false],
      ["lo", true, false],
      [" world", true, false],
    ]);
    expect(art.hasText).toBe(true);
    for (const e of published) {
      expect(e).toMatchObject({ taskId: "task-1", contextId: "ctx-1" });
      expect(e.artifact).toMatchObject({
        artifactId: ARTIFACT_ID,
        metadata: { kind: "assistant_text" },
      });
      expect(e.artifact?.parts).toHaveLength(1);
    }
  });

  it("finish() republishes the whole text as one clean part, append false, lastChunk true", () => {
    art.onEvent(start("m1"));
    art.onEvent(textDelta("Hel"));
    art.onEvent(textDelta("lo"));
    published.length = 0;
    art.finish();
    expect(chunks()).toEqual([["Hello", false, true]]);
    expect(published[0]?.artifact?.artifactId).toBe(ARTIFACT_ID);
  });

  it("publishes nothing, even on finish(), when there was no text", () => {
    play(
      start("m1"),
      delta({ type: "thinking", thinking: "hmm" }),
      delta({ type: "input_json", partialJson: '{"a":' }),
      textDelta(""),
      assistant("m1", [{ type: "thinking", thinking: "hmm" }, toolUse]),
    );
    expect(published).toEqual([]);
    expect(art.hasText).toBe(false);
  });

  it("ignores a subagent's text, streamed or complete", () => {
    art.onEvent(start("sub-1", "toolu_task"));
    art.onEvent(textDelta("subagent says", "toolu_task"));
    art.onEvent(assistant("sub-1", [textBlock("subagent says")], "toolu_task"));
    expect(published).toEqual([]);
    art.finish();
    expect(published).toEqual([]);
  });

  it("keeps main text separate from an interleaved subagent stream", () => {
    play(
      start("m1"),
      textDelta("main "),
      start("sub-1", "toolu_task"),
      textDelta("SUB", "toolu_task"),
      textDelta("text"),
    );
    expect(chunks()).toEqual([
      ["main ", false, false],
      ["text", true, false],
      ["main text", false, true],
    ]);
  });

  it("does not add a complete frame's text twice when the message streamed deltas", () => {
    play(start("m1"), textDelta("Hi"), assistant("m1", [textBlock("Hi")]));
    expect(chunks()).toEqual([
      ["Hi", false, false],
      ["Hi", false, true],
    ]);
  });

  it("uses complete frames for messages that streamed no deltas", () => {
    play(
      assistant("m1", [textBlock("First answer.")]),
      assistant("m2", [toolUse]),
      assistant("m3", [textBlock("Second answer.")]),
    );
    expect(chunks()).toEqual([
      ["First answer.", false, false],
      ["\n\nSecond answer.", true, false],
      ["First answer.\n\nSecond answer.", false, true],
    ]);
  });

  it("separates the text of successive API messages (before and after a tool call)", () => {
    play(
      start("m1"),
      textDelta("Let me look."),
      assistant("m1", [textBlock("Let me look."), toolUse]),
      start("m2"),
      textDelta("Found it"),
      textDelta("."),
    );
    expect(chunks()).toEqual([
      ["Let me look.", false, false],
      ["\n\nFound it", true, false],
      [".", true, false],
      ["Let me look.\n\nFound it.", false, true],
    ]);
  });

  it("mixes a streamed message and a frame-only message in order, separated", () => {
    play(start("m1"), textDelta("streamed"), assistant("m2", [textBlock("framed")]));
    expect(published.at(-1)?.artifact?.parts[0]?.content).toEqual({
      $case: "text",
      value: "streamed\n\nframed",
    });
  });

  it("adds no separator when the previous message already ended with a newline", () => {
    play(start("m1"), textDelta("line\n"), start("m2"), textDelta("next"));
    expect(chunks().at(-1)).toEqual(["line\nnext", false, true]);
  });
});

describe("AssistantTextArtifact, coalesced (streaming.flushMs)", () => {
  class Clock {
    private pending: { fn: () => void }[] = [];
    setTimeout(fn: () => void): unknown {
      const t = { fn };
      this.pending.push(t);
      return t;
    }
    clearTimeout(handle: unknown): void {
      this.pending = this.pending.filter((t) => t !== handle);
    }
    tick(): void {
      const due = this.pending.splice(0);
      for (const t of due) t.fn();
    }
  }

  const make = (maxChunkChars = 1_000) => {
    const clock = new Clock();
    const out: TaskArtifactUpdateEvent[] = [];
    const coalesced = new AssistantTextArtifact(ref, ARTIFACT_ID, (e) => out.push(e), {
      timers: clock,
      flushMs: 50,
      maxChunkChars,
    });
    const view = () =>
      out.map((e) => {
        const content = e.artifact?.parts[0]?.content;
        return [content?.$case === "text" ? content.value : content, e.append, e.lastChunk];
      });
    return { clock, out, coalesced, view };
  };

  it("sends the first delta at once, then one append per flush interval", () => {
    const { clock, coalesced, view } = make();
    coalesced.onEvent(start("m1"));
    for (const d of ["a", "b", "c", "d"]) coalesced.onEvent(textDelta(d));
    expect(view()).toEqual([["a", false, false]]);
    clock.tick();
    expect(view()).toEqual([
      ["a", false, false],
      ["bcd", true, false],
    ]);
    clock.tick();
    expect(view()).toHaveLength(2);
  });

  it("sends what is gathered once it reaches maxChunkChars, without waiting", () => {
    const { coalesced, view } = make(3);
    coalesced.onEvent(start("m1"));
    for (const d of ["a", "b", "c", "d", "e"]) coalesced.onEvent(textDelta(d));
    expect(view()).toEqual([
      ["a", false, false],
      ["bcd", true, false],
    ]);
  });

  it("flush() sends the gathered text before another event; finish() carries the whole text", () => {
    const { coalesced, view } = make();
    coalesced.onEvent(start("m1"));
    coalesced.onEvent(textDelta("Let me "));
    coalesced.onEvent(textDelta("check."));
    coalesced.flush(); // a tool call's status goes out next
    coalesced.onEvent(start("m2"));
    coalesced.onEvent(textDelta("Done"));
    coalesced.onEvent(textDelta("."));
    coalesced.finish();
    expect(view()).toEqual([
      ["Let me ", false, false],
      ["check.", true, false],
      // What was still gathered goes out before the closing chunk.
      ["\n\nDone.", true, false],
      ["Let me check.\n\nDone.", false, true],
    ]);
  });

  it("N deltas make far fewer than N events, and the final text is their concatenation", () => {
    const { clock, out, coalesced } = make(8192);
    coalesced.onEvent(start("m1"));
    const deltas = Array.from({ length: 20_000 }, (_, i) => `w${i % 10} `);
    deltas.forEach((d, i) => {
      coalesced.onEvent(textDelta(d));
      if (i % 500 === 0) clock.tick();
    });
    coalesced.finish();
    expect(out.length).toBeLessThan(200);
    const last = out.at(-1)?.artifact?.parts[0]?.content;
    expect(last?.$case === "text" ? last.value : undefined).toBe(deltas.join(""));
  });
});
