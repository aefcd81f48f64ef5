/**
 * ClaudeSession lifecycle on the REAL Claude Code runtime: close and resume, and a runtime
 * process that dies mid-run.
 */
import { describe, expect, it } from "vitest";
import type { RunStreamEvent } from "../../src/claude/index.js";
import { bench, reply, text, type Rule } from "../support/harness/index.js";
import { history, openSession } from "../support/harness/session.js";
import { recordingSpawner, requestMessages } from "../support/session-bench.js";
import { collectRun, within } from "../support/session-events.js";

const WAIT_MS = 30_000;

const rules = (word: string): Rule[] => [
  {
    name: "remember",
    match: { lastUserText: `Remember the word ${word}.` },
    reply: reply(text(`I will remember ${word}.`)),
  },
  {
    name: "recall",
    match: { lastUserText: "Which word did I ask you to remember?" },
    reply: reply(text(`You asked me to remember ${word}.`)),
  },
  {
    name: "slow-story",
    match: { lastUserText: "Tell me a long story." },
    // ~20 s if nothing stopped it.
    reply: reply(text("Once upon a time, ".repeat(40)), { chunkSize: 2, chunkDelayMs: 50 }),
  },
];

const collect = (stream: AsyncIterable<RunStreamEvent>, what: string) =>
  collectRun(stream, what, WAIT_MS);

describe("ClaudeSession lifecycle on the real runtime", () => {
  it("closes an idle session and resumes it: the conversation and its history go on", async () => {
    const b = await bench(rules("BANANA"));
    const first = openSession(b);
    const remember = first.session.stream("Remember the word BANANA.");
    expect((await collect(remember, "the first turn")).at(-1)).toMatchObject({
      kind: "run_completed",
      text: "I will remember BANANA.",
    });
    const sessionId = first.session.sessionId;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await within(first.session.close(), WAIT_MS, "close()");
    expect(first.events.of("closed").map((e) => e.reason)).toEqual(["session closed"]);
    expect(first.session.status).toBe("idle");

    const second = openSession(b, { resume: sessionId });
    const earlier = await history(second.session);
    expect(earlier.map((e) => [e.kind, e.text, e.source])).toEqual([
      ["user", "Remember the word BANANA.", "history"],
      ["assistant", "I will remember BANANA.", "history"],
    ]);
    const recall = second.session.stream("Which word did I ask you to remember?");
    expect((await collect(recall, "the resumed turn")).at(-1)).toEqual({
      kind: "run_completed",
      runId: recall.runId,
      text: "You asked me to remember BANANA.",
    });
    expect(second.counting.count).toBe(1);
    expect(second.session.sessionId).toBe(sessionId);
    const request = requestMessages(b.model.messageRequests.at(-1));
    expect(
      request.some((m) => m.startsWith("user:") && m.includes("Remember the word BANANA.")),
    ).toBe(true);
    expect(request).toContain("assistant: I will remember BANANA.");
    const all = await history(second.session);
    expect(all.map((e) => [e.kind, e.text])).toEqual([
      ["user", "Remember the word BANANA."],
      ["assistant", "I will remember BANANA."],
      ["user", "Which word did I ask you to remember?"],
      ["assistant", "You asked me to remember BANANA."],
    ]);
    expect(b.model.requests.map((r) => r.rule)).toEqual(["remember", "recall"]);
    expect(b.model.unmatched).toEqual([]);
  });

  it("fails the run of a runtime process killed mid-run; a re-created session goes on", async () => {
    const b = await bench(rules("CHERRY"));
    const spawner = recordingSpawner((d) => b.stderr.push(d));
    const first = openSession(b, {
      sdkOptions: { spawnClaudeCodeProcess: spawner.spawnClaudeCodeProcess },
    });
    const s = first.session;
    const remember = s.stream("Remember the word CHERRY.");
    expect((await collect(remember, "the first turn")).at(-1)).toMatchObject({
      kind: "run_completed",
    });
    const sessionId = s.sessionId;

    const story = s.stream("Tell me a long story.");
    const storyOut = collect(story, "the killed run to end");
    await first.events.waitForType(
      "run_event",
      (e) =>
        e.runId === story.runId &&
        e.event.kind === "stream" &&
        e.event.part.type === "content_block_delta",
      { timeoutMs: WAIT_MS, what: "the story to stream" },
    );
    expect(spawner.children).toHaveLength(1);
    const child = spawner.children[0];
    expect(child?.kill("SIGKILL")).toBe(true);

    const ended = (await storyOut).at(-1);
    expect(ended).toMatchObject({ kind: "run_failed", runId: story.runId });
    const reason = ended?.kind === "run_failed" ? ended.reason : "";
    expect(reason).toMatch(/^Claude Code process ended before the run finished: .*SIGKILL/);
    expect(await s.waitForFinish(WAIT_MS)).toBe("error");
    expect(first.events.of("closed")).toHaveLength(1);
    // The dead session says so at once to any later prompt.
    const late = s.stream("Which word did I ask you to remember?");
    const lateEnd = (await collect(late, "a prompt to the dead session")).at(-1);
    expect(lateEnd).toMatchObject({ kind: "run_failed" });
    expect(lateEnd?.kind === "run_failed" ? lateEnd.reason : "").toMatch(
      /re-create the session to resume/,
    );
    expect(first.counting.count).toBe(1);

    const second = openSession(b, { resume: sessionId });
    const recall = second.session.stream("Which word did I ask you to remember?");
    expect((await collect(recall, "the turn of the re-created session")).at(-1)).toEqual({
      kind: "run_completed",
      runId: recall.runId,
      text: "You asked me to remember CHERRY.",
    });
    expect(requestMessages(b.model.messageRequests.at(-1))).toContain(
      "assistant: I will remember CHERRY.",
    );
    expect(await second.session.waitForFinish(WAIT_MS)).toBe("idle");
    expect(b.model.requests.map((r) => r.rule)).toEqual(["remember", "slow-story", "recall"]);
    expect(b.model.unmatched).toEqual([]);
  });
});
