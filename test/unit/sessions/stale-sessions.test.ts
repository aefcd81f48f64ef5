import { beforeEach, describe, expect, it } from "vitest";
import type { SessionEvent, SessionListener } from "../../../src/claude/index.js";
import type { SessionFactoryArgs } from "../../../src/sessions/pool.js";
import { sessionResetText, TRANSCRIPT_MISSING } from "../../../src/sessions/recovery.js";
import { key, usePoolFixture } from "./support/pool.js";

/** What the pool reads of a ClaudeSession. */
class FakeSession {
  status = "idle";
  private readonly listeners = new Set<SessionListener>();
  constructor(readonly args: SessionFactoryArgs) {}
  backgroundTasks() {
    return [];
  }
  subscribe(listener: SessionListener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  close() {
    this.emit({ type: "closed", reason: "session closed" });
    return Promise.resolve();
  }
  emit(event: SessionEvent) {
    for (const l of [...this.listeners]) l(event);
  }
}

const pools = usePoolFixture("claude-a2a-stale-", (args) => new FakeSession(args));
const { created } = pools;
let transcripts = new Set<string>();
beforeEach(() => {
  transcripts = new Set();
});

const makePool = () =>
  pools.pool({ checkTranscript: (id) => Promise.resolve(transcripts.has(id)) });

describe("SessionPool: stale sessions", () => {
  it("at startup drops a mapping whose transcript is gone; the context starts fresh and its first lease says so", async () => {
    await pools.sessionMap.set(key("ctx-gone"), "sess-gone");
    await pools.sessionMap.set(key("ctx-kept"), "sess-kept");
    transcripts.add("sess-kept");
    const pool = makePool();
    expect(await pool.dropStaleSessions()).toEqual([key("ctx-gone")]);
    expect(pools.sessionMap.get(key("ctx-gone"))).toBeUndefined();
    expect(pools.sessionMap.get(key("ctx-kept"))?.sessionId).toBe("sess-kept");

    const first = pool.acquire(key("ctx-gone"));
    expect(created[0]?.args).toEqual({ key: key("ctx-gone"), resume: undefined });
    expect(first.reset).toEqual({ previousSessionId: "sess-gone", reason: TRANSCRIPT_MISSING });
    first.release();
    // Only the first lease reports it.
    const second = pool.acquire(key("ctx-gone"));
    expect(second.reset).toBeUndefined();
    second.release();

    const kept = pool.acquire(key("ctx-kept"));
    expect(created[1]?.args).toEqual({ key: key("ctx-kept"), resume: "sess-kept" });
    expect(kept.reset).toBeUndefined();
    kept.release();
    await pool.closeAll();
  });

  it("a session that ends with the runtime's 'No conversation found' drops the mapping; the next session is fresh", async () => {
    await pools.sessionMap.set(key("ctx"), "sess-1");
    transcripts.add("sess-1"); // present at startup, yet the runtime refuses it
    const pool = makePool();
    expect(await pool.dropStaleSessions()).toEqual([]);
    const lease = pool.acquire(key("ctx"));
    expect(created[0]?.args.resume).toBe("sess-1");
    created[0]?.emit({
      type: "closed",
      reason: "Claude Code process exited: No conversation found with session ID: sess-1",
    });
    lease.release();
    await pools.sessionMap.flush();
    expect(pools.sessionMap.get(key("ctx"))).toBeUndefined();

    const next = pool.acquire(key("ctx"));
    expect(created[1]?.args).toEqual({ key: key("ctx"), resume: undefined });
    expect(next.reset?.previousSessionId).toBe("sess-1");
    next.release();
    await pool.closeAll();
  });

  it("any other process end keeps a mapping whose transcript exists", async () => {
    await pools.sessionMap.set(key("ctx"), "sess-1");
    transcripts.add("sess-1");
    const pool = makePool();
    const lease = pool.acquire(key("ctx"));
    created[0]?.emit({ type: "closed", reason: "Claude Code process exited with code 1" });
    lease.release();
    await new Promise((resolve) => setImmediate(resolve));
    await pools.sessionMap.flush();
    expect(pools.sessionMap.get(key("ctx"))?.sessionId).toBe("sess-1");
    expect(pool.acquire(key("ctx")).reset).toBeUndefined();
    expect(created[1]?.args.resume).toBe("sess-1");
    await pool.closeAll();
  });

  it("says which session was lost, and why", () => {
    expect(sessionResetText({ previousSessionId: "abc", reason: TRANSCRIPT_MISSING })).toBe(
      "The previous Claude session of this context (abc) cannot be resumed (its transcript no " +
        "longer exists), so this task starts a fresh conversation: earlier messages of this " +
        "context are not known to Claude.",
    );
  });

  it("a run that ends with the API's 400 replaces the session, resumed before the rejected prompt", async () => {
    await pools.sessionMap.set(key("ctx"), "sess-1");
    transcripts.add("sess-1");
    const points = new Map([["sess-1", "assistant-uuid-7"]]);
    const pool = pools.pool({ rewindPoint: (id) => points.get(id) });
    const lease = pool.acquire(key("ctx"));
    created[0]?.emit({
      type: "run_ended",
      runId: "r1",
      origin: "foreground",
      outcome: { state: "error", reason: "API Error: 400 Bad request", cause: "prompt_rejected" },
    });
    lease.release();
    const next = pool.acquire(key("ctx"));
    expect(created).toHaveLength(2);
    expect(created[1]?.args).toEqual({
      key: key("ctx"),
      resume: "sess-1",
      resumeAt: "assistant-uuid-7",
    });
    expect(next.reset).toBeUndefined();
    next.release();
    // Any other error keeps the session.
    const again = pool.acquire(key("ctx"));
    created[1]?.emit({
      type: "run_ended",
      runId: "r2",
      origin: "foreground",
      outcome: { state: "error", reason: "Claude Code process ended" },
    });
    again.release();
    pool.acquire(key("ctx")).release();
    expect(created).toHaveLength(2);
    await pool.closeAll();
  });
});
