/**
 * ClaudeSession against the REAL Claude Code runtime (default query factory) and the scripted
 * model: turns in one process, interrupt, and an autonomous wake seen through subscribe().
 */
import { describe, expect, it } from "vitest";
import type { RunStreamEvent } from "../../src/claude/index.js";
import { bench, reply, says, text } from "../support/harness/index.js";
import { startJobRules } from "../support/a2a/background.js";
import { openSession } from "../support/harness/session.js";
import { requestMessages } from "../support/session-bench.js";
import { collectRun, streamedText, within } from "../support/session-events.js";

const WAIT_MS = 30_000;

const collect = (stream: AsyncIterable<RunStreamEvent>, what: string) =>
  collectRun(stream, what, WAIT_MS);

describe("ClaudeSession on the real runtime", () => {
  it("holds a two-turn conversation in one process; the second request carries the first", async () => {
    const b = await bench([
      says("What is the codeword?", "The codeword is PAPAYA.", "turn-1"),
      says("Say the codeword again.", "PAPAYA, again.", "turn-2"),
    ]);
    const { session: s, counting } = openSession(b);

    const first = s.stream("What is the codeword?");
    expect((await collect(first, "turn 1")).at(-1)).toEqual({
      kind: "run_completed",
      runId: first.runId,
      text: "The codeword is PAPAYA.",
    });
    const second = s.stream("Say the codeword again.");
    expect((await collect(second, "turn 2")).at(-1)).toEqual({
      kind: "run_completed",
      runId: second.runId,
      text: "PAPAYA, again.",
    });

    const history = [];
    for await (const entry of s.streamHistory()) history.push(entry);
    expect(counting.count).toBe(1);
    expect(b.model.requests.map((r) => r.rule)).toEqual(["turn-1", "turn-2"]);
    // The runtime fact the router relies on: a turn's first partial frame, its first assistant
    // message and its result carry the uuid of the send they answer.
    for (const entry of history.filter((e) => e.kind === "user")) {
      const stamped = counting.frames.filter(
        (f) => "user_message_uuid" in f && f.user_message_uuid === entry.uuid,
      );
      expect(
        stamped.map((f) => (f.type === "stream_event" ? `stream_event:${f.event.type}` : f.type)),
        `frames stamped with the send of "${entry.text}"`,
      ).toEqual(["stream_event:message_start", "assistant", "result"]);
    }
    const turn2 = requestMessages(b.model.messageRequests[1]);
    expect(turn2).toContain("assistant: The codeword is PAPAYA.");
    expect(turn2.some((m) => m.startsWith("user:") && m.includes("What is the codeword?"))).toBe(
      true,
    );
    expect(history.map((e) => [e.kind, e.text])).toEqual([
      ["user", "What is the codeword?"],
      ["assistant", "The codeword is PAPAYA."],
      ["user", "Say the codeword again."],
      ["assistant", "PAPAYA, again."],
    ]);
    expect(await s.waitForFinish(WAIT_MS)).toBe("idle");
    expect(b.model.unmatched).toEqual([]);
  });

  it("interrupts a slowly streaming run; the next prompt completes with its own text", async () => {
    const story = "Once upon a time, ".repeat(40);
    const b = await bench([
      {
        name: "slow-story",
        match: { lastUserText: "Tell me a long story." },
        // 2 characters every 50 ms: ~18 s if nobody interrupted it.
        reply: reply(text(story), { chunkSize: 2, chunkDelayMs: 50 }),
      },
      says("Just say OK.", "OK.", "short-answer"),
    ]);
    const { session: s, counting, events } = openSession(b);

    const slow = s.stream("Tell me a long story.");
    const slowOut = collect(slow, "the interrupted run to end");
    await events.waitForType(
      "run_event",
      (e) =>
        e.runId === slow.runId &&
        e.event.kind === "stream" &&
        e.event.part.type === "content_block_delta",
      { timeoutMs: WAIT_MS, what: "the first streamed chunk of the story" },
    );
    await within(s.interrupt(), WAIT_MS, "interrupt() to resolve");
    const slowEvents = await slowOut;
    const ended = slowEvents.at(-1);
    expect(ended).toMatchObject({ kind: "run_interrupted", runId: slow.runId });
    const partial = ended?.kind === "run_interrupted" ? ended.text : "";
    expect(story.startsWith(partial)).toBe(true);
    expect(partial.length).toBeLessThan(story.length);
    expect(s.turnState).toBe("idle");

    const next = s.stream("Just say OK.");
    const nextEvents = await collect(next, "the prompt after the interrupt");
    expect(nextEvents.at(-1)).toEqual({ kind: "run_completed", runId: next.runId, text: "OK." });
    expect(streamedText(nextEvents)).toBe("OK.");
    expect(
      nextEvents.some(
        (e) =>
          e.kind === "stream" &&
          e.messageId !== undefined &&
          e.messageId === slowMessageId(slowEvents),
      ),
    ).toBe(false);
    expect(counting.count).toBe(1);
    expect(await s.waitForFinish(WAIT_MS)).toBe("idle");
    expect(b.model.unmatched).toEqual([]);
  });

  it("a caller that stops reading its stream cancels the run; the next prompt works", async () => {
    const b = await bench([
      {
        name: "slow-story",
        match: { lastUserText: "Tell me a long story." },
        reply: reply(text("Once upon a time, ".repeat(40)), { chunkSize: 2, chunkDelayMs: 50 }),
      },
      says("Just say OK.", "OK.", "short-answer"),
    ]);
    const { session: s, events } = openSession(b);
    const slow = s.stream("Tell me a long story.");
    await within(
      (async () => {
        for await (const e of slow)
          if (e.kind === "stream" && e.part.type === "content_block_delta") break;
      })(),
      WAIT_MS,
      "the first chunk of the story",
    );
    const ended = await events.waitForType("run_ended", (e) => e.runId === slow.runId, {
      timeoutMs: WAIT_MS,
      what: "the abandoned run to end",
    });
    expect(ended.outcome.state).toBe("interrupted");
    const next = s.stream("Just say OK.");
    expect((await collect(next, "the next prompt")).at(-1)).toEqual({
      kind: "run_completed",
      runId: next.runId,
      text: "OK.",
    });
    expect(b.model.unmatched).toEqual([]);
  });

  it("interrupts an autonomous run with no foreground prompt; the session goes on", async () => {
    const b = await bench([
      ...startJobRules("sleep 0.2 && echo job-finished"),
      {
        name: "slow-wake",
        match: { lastUserText: /<task-notification>/ },
        // ~20 s if nothing stopped it.
        reply: reply(text("The job is done. ".repeat(25)), { chunkSize: 2, chunkDelayMs: 50 }),
      },
      says("Just say OK.", "OK.", "short-answer"),
    ]);
    const { session: s, events } = openSession(b);
    await collect(s.stream("Start the job"), "the foreground run");
    const wake = await events.waitForType("run_started", (e) => e.origin === "autonomous", {
      timeoutMs: WAIT_MS,
      what: "the autonomous run to start",
    });
    await events.waitForType(
      "run_event",
      (e) =>
        e.runId === wake.runId &&
        e.event.kind === "stream" &&
        e.event.part.type === "content_block_delta",
      { timeoutMs: WAIT_MS, what: "the wake to stream" },
    );
    expect(s.status).toBe("running");
    expect(s.turnState).toBe("autonomous");
    await within(s.interrupt(), WAIT_MS, "interrupt() of the autonomous run");
    const ended = events.of("run_ended").find((e) => e.runId === wake.runId);
    expect(ended?.outcome).toMatchObject({ state: "interrupted" });
    expect(s.turnState).toBe("idle");
    expect(await s.waitForFinish(WAIT_MS)).toBe("idle");

    const next = s.stream("Just say OK.");
    expect((await collect(next, "the prompt after the interrupt")).at(-1)).toEqual({
      kind: "run_completed",
      runId: next.runId,
      text: "OK.",
    });
    expect(b.model.unmatched).toEqual([]);
  });

  it("turns a finished background Bash into an autonomous run: running, then idle", async () => {
    const b = await bench([
      ...startJobRules("sleep 0.5 && echo job-finished"),
      {
        name: "wake",
        match: { lastUserText: /<task-notification>[\s\S]*<status>completed<\/status>/ },
        reply: reply(text("The job is done."), { chunkSize: 4, chunkDelayMs: 20 }),
      },
    ]);
    const { session: s, counting, events } = openSession(b);
    // Asked the moment the wake begins: it must not answer idle while the wake runs.
    let finishedAt: { status: string; index: number } | undefined;
    let finish: Promise<void> | undefined;
    s.subscribe((e) => {
      if (e.type === "run_started" && e.origin === "autonomous" && finish === undefined) {
        finish = s.waitForFinish(WAIT_MS).then((status) => {
          finishedAt = { status, index: events.events.length };
        });
      }
    });

    const fg = s.stream("Start the job");
    expect((await collect(fg, "the foreground run")).at(-1)).toEqual({
      kind: "run_completed",
      runId: fg.runId,
      text: "Job started.",
    });
    const started = await events.waitForType("run_started", (e) => e.origin === "autonomous", {
      timeoutMs: WAIT_MS,
      what: "the autonomous run to start",
    });
    const from = events.events.indexOf(started);
    const ended = await events.waitForType("run_ended", (e) => e.runId === started.runId, {
      timeoutMs: WAIT_MS,
      what: "the autonomous run to end",
      from,
    });
    expect(ended.outcome).toEqual({ state: "completed", text: "The job is done." });
    await within(finish ?? Promise.reject(new Error("no waitForFinish")), WAIT_MS, "waitForFinish");
    expect(finishedAt?.status).toBe("idle");
    expect(finishedAt?.index).toBeGreaterThan(events.events.indexOf(ended));

    // The order the layer above mirrors: run started, running, run ended, idle.
    const seq = events.events
      .slice(from)
      .flatMap((e) =>
        e.type === "status"
          ? [e.status]
          : (e.type === "run_started" || e.type === "run_ended") && e.runId === started.runId
            ? [e.type]
            : [],
      );
    expect(seq).toEqual(["run_started", "running", "run_ended", "idle"]);
    expect(s.status).toBe("idle");
    expect(s.turnState).toBe("idle");
    expect(s.backgroundTasks()).toEqual([]);
    const finished = events.of("background_task_finished");
    expect(finished.map((e) => [e.task.status, e.task.runId])).toEqual([["completed", fg.runId]]);
    expect(counting.count).toBe(1);
    expect(b.model.requests.map((r) => r.rule)).toEqual(["start-job", "started", "wake"]);
    expect(b.model.unmatched).toEqual([]);
  });
});

function slowMessageId(events: readonly RunStreamEvent[]): string | undefined {
  for (const e of events) if (e.kind === "stream" && e.messageId !== undefined) return e.messageId;
  return undefined;
}
