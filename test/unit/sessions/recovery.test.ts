import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunOutcome } from "../../../src/claude/index.js";
import { TEXT } from "../../../src/contract/texts.js";
import { conversationKey } from "../../../src/identity/conversation.js";
import {
  afterCloseFollowUp,
  planResume,
  rejectsEveryPrompt,
  SessionRecovery,
  TRANSCRIPT_MISSING,
  type ResumeInput,
  type ResumePlan,
} from "../../../src/sessions/recovery.js";
import type { SessionMap } from "../../../src/store/session-map.js";
import { openLocalSessionMap } from "../../../src/store/open-session-map.js";

const stale = { previousSessionId: "s-old", reason: TRANSCRIPT_MISSING };
const points: Record<string, string> = { "s-1": "assistant-7" };
const rewindPoint = (id: string) => points[id];

describe("planResume", () => {
  const rows: [string, Omit<ResumeInput, "rewindPoint">, ResumePlan][] = [
    [
      "nothing mapped",
      { mapped: undefined, reset: undefined, poisoned: false },
      { resume: undefined, dropMapping: false },
    ],
    [
      "mapped",
      { mapped: "s-1", reset: undefined, poisoned: false },
      { resume: "s-1", dropMapping: false },
    ],
    [
      "mapping dropped as stale",
      { mapped: undefined, reset: stale, poisoned: false },
      { resume: undefined, reset: stale, dropMapping: false },
    ],
    [
      "rejected prompt after an answer",
      { mapped: "s-1", reset: undefined, poisoned: true },
      { resume: "s-1", resumeAt: "assistant-7", dropMapping: false },
    ],
    [
      "rejected first prompt",
      { mapped: "s-2", reset: undefined, poisoned: true },
      {
        resume: undefined,
        reset: { previousSessionId: "s-2", reason: TEXT.firstPromptRejected },
        dropMapping: true,
      },
    ],
    [
      "rejected, nothing mapped",
      { mapped: undefined, reset: undefined, poisoned: true },
      { resume: undefined, dropMapping: false },
    ],
  ];
  it.each(rows)("%s", (_name, input, plan) => {
    expect(planResume({ ...input, rewindPoint })).toEqual(plan);
  });

  it("reads the transcript only for a poisoned session", () => {
    const read: string[] = [];
    const reading = (id: string) => (read.push(id), undefined);
    planResume({ mapped: "s-1", reset: undefined, poisoned: false, rewindPoint: reading });
    expect(read).toEqual([]);
  });
});

describe("afterCloseFollowUp", () => {
  const notFound = "Claude Code process exited: No conversation found with session ID: s-1";
  it.each([
    [notFound, true, false, "reset"],
    ["Claude Code process exited with code 1", true, false, "recheck"],
    [notFound, false, false, "none"],
    [notFound, true, true, "none"],
    ["session closed", true, true, "none"],
  ] as const)("%s (mapped %s, stopped %s): %s", (reason, mapped, stopped, followUp) => {
    expect(afterCloseFollowUp(reason, mapped, stopped)).toBe(followUp);
  });
});

describe("rejectsEveryPrompt", () => {
  it.each([
    [{ state: "error", reason: "API Error: 400 Bad request", cause: "prompt_rejected" }, true],
    [{ state: "error", reason: "Not logged in", cause: "authentication_failed" }, false],
    [{ state: "error", reason: "Claude Code process ended" }, false],
    [{ state: "completed", text: "API Error: 400" }, false],
  ] as [RunOutcome, boolean][])("%o: %s", (outcome, expected) => {
    expect(rejectsEveryPrompt(outcome)).toBe(expected);
  });
});

describe("SessionRecovery", () => {
  let dir = "";
  let map: SessionMap;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "a2a-recovery-"));
    map = await openLocalSessionMap({ cwd: dir, logger: { warn: () => undefined } });
  });
  afterEach(async () => {
    await map.flush();
    await rm(dir, { recursive: true, force: true });
  });
  const key = conversationKey({ owner: "unknown", contextId: "ctx" });
  const recovery = (live = false) =>
    new SessionRecovery({
      sessionMap: map,
      logger: pino({ level: "silent" }),
      checkTranscript: () => Promise.resolve(false),
      rewindPoint,
      isLive: () => live,
    });

  it("spends a mark on the next session only: the one after resumes as usual", async () => {
    await map.set(key, "s-1");
    const r = recovery();
    r.poison(key);
    expect(r.next(key)).toEqual({ resume: "s-1", resumeAt: "assistant-7", dropMapping: false });
    expect(r.next(key)).toEqual({ resume: "s-1", dropMapping: false });
  });

  it("drops a stale mapping at startup unless the conversation is live, and says so once", async () => {
    await map.set(key, "s-gone");
    expect(await recovery(true).dropStaleSessions()).toEqual([]);
    const r = recovery();
    expect(await r.dropStaleSessions()).toEqual([key]);
    expect(map.get(key)).toBeUndefined();
    const reset = { previousSessionId: "s-gone", reason: TRANSCRIPT_MISSING };
    expect(r.next(key)).toEqual({ resume: undefined, reset, dropMapping: false });
    expect(r.next(key)).toEqual({ resume: undefined, dropMapping: false });
  });

  it("once stopped, a session's end changes no mapping", async () => {
    await map.set(key, "s-1");
    const r = recovery();
    r.stop();
    r.afterClose(key, "No conversation found with session ID: s-1");
    await map.flush();
    expect(map.get(key)?.sessionId).toBe("s-1");
  });
});
