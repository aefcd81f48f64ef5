import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ClaudeSession, SessionEvent, SessionListener } from "../../../src/claude/index.js";
import { SessionPool, type SessionFactoryArgs, type Timers } from "../../../src/sessions/pool.js";
import { SessionMap } from "../../../src/store/session-map.js";

/** A session whose close() completes only when the test says (a process shutting down). */
class FakeSession {
  status = "idle";
  private readonly listeners = new Set<SessionListener>();
  private finishClose: (() => void) | undefined;
  closing = false;
  constructor(readonly args: SessionFactoryArgs) {}
  backgroundTasks() {
    return [];
  }
  subscribe(listener: SessionListener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  close() {
    this.closing = true;
    return new Promise<void>((resolve) => (this.finishClose = resolve));
  }
  exited() {
    this.finishClose?.();
  }
  emit(event: SessionEvent) {
    for (const l of [...this.listeners]) l(event);
  }
}

/** Manual clock and timers. */
class Clock implements Timers {
  now = 0;
  private readonly pending = new Map<number, { at: number; fn: () => void }>();
  private seq = 0;
  setTimeout(fn: () => void, ms: number) {
    this.pending.set(++this.seq, { at: this.now + ms, fn });
    return this.seq;
  }
  clearTimeout(h: unknown) {
    this.pending.delete(h as number);
  }
  advance(ms: number) {
    this.now += ms;
    for (const [id, t] of [...this.pending].sort((a, b) => a[1].at - b[1].at)) {
      if (t.at > this.now) continue;
      this.pending.delete(id);
      t.fn();
    }
  }
}

let dir = "";
let sessionMap: SessionMap;
let created: FakeSession[];
let clock: Clock;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "a2a-limits-"));
  sessionMap = await SessionMap.open({ cwd: dir, logger: { warn: () => undefined } });
  created = [];
  clock = new Clock();
});
afterEach(async () => {
  await sessionMap.flush();
  await rm(dir, { recursive: true, force: true });
});

const makePool = (maxLive: number, minIdleBeforeEvictMs = 0) =>
  new SessionPool({
    sessionMap,
    createSession: (args) => {
      const s = new FakeSession(args);
      created.push(s);
      return s as unknown as ClaudeSession;
    },
    idleTimeoutMs: 3_600_000,
    maxLive,
    minIdleBeforeEvictMs,
    now: () => clock.now,
    timers: clock,
    logger: pino({ level: "silent" }),
  });

const settled = async (p: Promise<void>) => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe("SessionPool: maxLive as a hard cap (whenFree)", () => {
  it("a new context waits while every live session is busy, and gets the process once one frees and has exited", async () => {
    const pool = makePool(1);
    await pool.whenFree("a");
    const a = pool.acquire("a");
    const waitB = pool.whenFree("b");
    expect(await settled(waitB)).toBe(false);
    expect(pool.waiting).toBe(1);

    a.release(); // idle now: evicted for the waiting context…
    expect(created[0]?.closing).toBe(true);
    // …but its process still counts until it has exited.
    expect(pool.processCount).toBe(1);
    expect(await settled(waitB)).toBe(false);
    created[0]?.exited();
    expect(await settled(waitB)).toBe(true);
    const b = pool.acquire("b");
    expect(pool.processCount).toBe(1);
    b.release();
  });

  it("a live context never waits; waiters are served first come, first served", async () => {
    const pool = makePool(1);
    await pool.whenFree("a");
    const a = pool.acquire("a");
    expect(await settled(pool.whenFree("a"))).toBe(true);
    const b = pool.whenFree("b");
    const c = pool.whenFree("c");
    a.release();
    created[0]?.exited();
    expect(await settled(b)).toBe(true);
    expect(await settled(c)).toBe(false);
    pool.acquire("b").release();
    created[1]?.exited();
    expect(await settled(c)).toBe(true);
  });

  it("evicts only a session idle for at least minIdleBeforeEvictMs, so a conversation keeps its process between turns", async () => {
    const pool = makePool(1, 10_000);
    await pool.whenFree("a");
    pool.acquire("a").release(); // idle since t=0
    clock.advance(4_000);
    const waitB = pool.whenFree("b");
    expect(created[0]?.closing).toBe(false);
    // Context a's next turn comes within the grace: it keeps its process; b still waits.
    const again = pool.acquire("a");
    clock.advance(10_000);
    expect(created[0]?.closing).toBe(false);
    again.release(); // idle since t=14 000
    clock.advance(9_999);
    expect(created[0]?.closing).toBe(false);
    clock.advance(1);
    expect(created[0]?.closing).toBe(true);
    created[0]?.exited();
    expect(await settled(waitB)).toBe(true);
  });
});

describe("SessionPool: leaving the wait", () => {
  it("an aborted wait leaves the queue; a kept slot given back with forgo() serves the next", async () => {
    const pool = makePool(1);
    await pool.whenFree("a");
    const a = pool.acquire("a");
    const abort = new AbortController();
    const b = pool.whenFree("b", abort.signal);
    const c = pool.whenFree("c");
    abort.abort();
    await expect(b).rejects.toThrow("aborted");
    expect(pool.waiting).toBe(1);
    a.release();
    created[0]?.exited();
    expect(await settled(c)).toBe(true);
    // c's task is canceled before it acquires: the slot goes back.
    const d = pool.whenFree("d");
    expect(await settled(d)).toBe(false);
    pool.forgo();
    expect(await settled(d)).toBe(true);
  });
});
