import { beforeEach, describe, expect, it } from "vitest";
import type {
  BackgroundTask,
  ClaudeSession,
  SessionEvent,
  SessionListener,
  SessionStatus,
} from "../../../src/claude/index.js";
import type {
  SessionFactoryArgs,
  SessionPool,
  SessionPoolOptions,
} from "../../../src/sessions/pool.js";
import { openLocalSessionMap } from "../../../src/store/open-session-map.js";
import { key, ManualTimers, usePoolFixture } from "./support/pool.js";

/** What the pool reads of a ClaudeSession. */
class FakeSession {
  status: SessionStatus = "idle";
  tasks: BackgroundTask[] = [];
  closeCalls = 0;
  private readonly listeners = new Set<SessionListener>();

  constructor(readonly args: SessionFactoryArgs) {}

  backgroundTasks(): BackgroundTask[] {
    return this.tasks;
  }

  subscribe(listener: SessionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): Promise<void> {
    this.closeCalls++;
    this.emit({ type: "closed", reason: "session closed" });
    return Promise.resolve();
  }

  emit(event: SessionEvent): void {
    for (const l of [...this.listeners]) l(event);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  setStatus(status: SessionStatus): void {
    const previous = this.status;
    this.status = status;
    this.emit({ type: "status", status, previous });
  }
}

const bgTask = (taskId: string): BackgroundTask => ({
  taskId,
  description: "npm test",
  backgrounded: true,
  live: true,
  ambient: false,
  status: "running",
});

const IDLE_MS = 60_000;
const pools = usePoolFixture("claude-a2a-pool-", (args) => new FakeSession(args));
const { created } = pools;
let timers: ManualTimers;
beforeEach(() => {
  timers = new ManualTimers();
});

function makePool(over: Partial<SessionPoolOptions> = {}): SessionPool {
  return pools.pool({ idleTimeoutMs: IDLE_MS, timers, ...over });
}

const fake = (s: ClaudeSession) => s as unknown as FakeSession;

describe("SessionPool: one session per context", () => {
  it("creates a context's session once and hands the same one to every lease", () => {
    const pool = makePool();
    const a1 = pool.acquire(key("ctx-a"));
    const a2 = pool.acquire(key("ctx-a"));
    const b = pool.acquire(key("ctx-b"));
    expect(a2.session).toBe(a1.session);
    expect(b.session).not.toBe(a1.session);
    expect(created.map((s) => s.args)).toEqual([
      { key: key("ctx-a"), resume: undefined },
      { key: key("ctx-b"), resume: undefined },
    ]);
    expect(pool.liveCount).toBe(2);
    expect(pool.peek(key("ctx-a"))).toBe(a1.session);
    expect(pool.peek(key("ctx-c"))).toBeUndefined();
  });

  it("persists the session_id to the map and resumes it when the session is re-created", async () => {
    const pool = makePool();
    const lease = pool.acquire(key("ctx-a"));
    fake(lease.session).emit({ type: "session_id", sessionId: "claude-sess-1" });
    await pools.sessionMap.flush();
    expect(pools.sessionMap.get(key("ctx-a"))?.sessionId).toBe("claude-sess-1");
    const reopened = await openLocalSessionMap({
      cwd: pools.dir,
      logger: { warn: () => undefined },
    });
    expect(reopened.get(key("ctx-a"))?.sessionId).toBe("claude-sess-1");

    lease.release();
    fake(lease.session).emit({ type: "closed", reason: "process exited" });
    expect(pool.has(key("ctx-a"))).toBe(false);
    const again = pool.acquire(key("ctx-a"));
    expect(again.session).not.toBe(lease.session);
    expect(fake(again.session).args).toEqual({ key: key("ctx-a"), resume: "claude-sess-1" });
  });

  it("resumes from a map written by an earlier run of the server", async () => {
    await pools.sessionMap.set(key("ctx-old"), "sess-old");
    const pool = makePool();
    pool.acquire(key("ctx-old"));
    expect(created[0]?.args).toEqual({ key: key("ctx-old"), resume: "sess-old" });
  });

  it("records a changed session_id and keeps the latest", async () => {
    const pool = makePool();
    const s = fake(pool.acquire(key("ctx-a")).session);
    s.emit({ type: "session_id", sessionId: "s1" });
    s.emit({ type: "session_id", sessionId: "s1" });
    s.emit({ type: "session_id", sessionId: "s2" });
    await pools.sessionMap.flush();
    expect(pools.sessionMap.get(key("ctx-a"))?.sessionId).toBe("s2");
    expect(pools.sessionMap.size).toBe(1);
  });

  it("drops the entry on a closed event, stops listening, and re-creates on the next acquire", () => {
    const pool = makePool();
    const first = fake(pool.acquire(key("ctx-a")).session);
    first.emit({ type: "closed", reason: "process exited" });
    expect(pool.has(key("ctx-a"))).toBe(false);
    expect(pool.liveCount).toBe(0);
    expect(first.listenerCount).toBe(0);
    const second = fake(pool.acquire(key("ctx-a")).session);
    expect(second).not.toBe(first);
    expect(created).toHaveLength(2);
    expect(first.closeCalls).toBe(0);
  });

  it("ignores a late closed event of a replaced session", () => {
    const pool = makePool();
    const first = fake(pool.acquire(key("ctx-a")).session);
    first.emit({ type: "closed", reason: "exited" });
    const second = pool.acquire(key("ctx-a")).session;
    first.emit({ type: "closed", reason: "exited again" });
    expect(pool.peek(key("ctx-a"))).toBe(second);
  });
});

describe("SessionPool: idle timeout", () => {
  it("closes a session left idle for the timeout, and not before", () => {
    const pool = makePool();
    const lease = pool.acquire(key("ctx-a"));
    const s = fake(lease.session);
    lease.release();
    timers.advance(IDLE_MS - 1);
    expect(s.closeCalls).toBe(0);
    expect(pool.has(key("ctx-a"))).toBe(true);
    timers.advance(1);
    expect(s.closeCalls).toBe(1);
    expect(pool.has(key("ctx-a"))).toBe(false);
  });

  it("never closes a session while a lease is held", () => {
    const pool = makePool();
    const a = pool.acquire(key("ctx-a"));
    const b = pool.acquire(key("ctx-a"));
    a.release();
    a.release(); // a second release must not drop b's lease
    timers.advance(IDLE_MS * 10);
    expect(fake(b.session).closeCalls).toBe(0);
    expect(timers.armed).toBe(0);
    b.release();
    timers.advance(IDLE_MS);
    expect(fake(b.session).closeCalls).toBe(1);
  });

  it("re-acquiring a session disarms its idle timer", () => {
    const pool = makePool();
    const s = fake(pool.acquire(key("ctx-a")).session);
    pool.acquire(key("ctx-a")).release();
    timers.advance(IDLE_MS / 2);
    const lease = pool.acquire(key("ctx-a"));
    timers.advance(IDLE_MS * 2);
    expect(s.closeCalls).toBe(0);
    lease.release();
  });

  it.each<SessionStatus>(["running", "permission"])(
    "never closes a session whose status is %s, and starts counting when it becomes idle",
    (status) => {
      const pool = makePool();
      const lease = pool.acquire(key("ctx-a"));
      const s = fake(lease.session);
      s.setStatus(status);
      lease.release();
      timers.advance(IDLE_MS * 10);
      expect(s.closeCalls).toBe(0);
      s.setStatus("idle");
      timers.advance(IDLE_MS - 1);
      expect(s.closeCalls).toBe(0);
      timers.advance(1);
      expect(s.closeCalls).toBe(1);
    },
  );

  it("does not close a session that became busy without telling the pool before the timer fired", () => {
    const pool = makePool();
    const lease = pool.acquire(key("ctx-a"));
    const s = fake(lease.session);
    lease.release();
    s.status = "running";
    timers.advance(IDLE_MS);
    expect(s.closeCalls).toBe(0);
    expect(pool.has(key("ctx-a"))).toBe(true);
  });

  it("a status change to running disarms a pending idle timer", () => {
    const pool = makePool();
    const lease = pool.acquire(key("ctx-a"));
    const s = fake(lease.session);
    lease.release();
    s.setStatus("running");
    expect(timers.armed).toBe(0);
    s.status = "idle"; // silently: nothing re-arms
    timers.advance(IDLE_MS * 2);
    expect(s.closeCalls).toBe(0);
    s.emit({
      type: "run_ended",
      runId: "r1",
      origin: "autonomous",
      outcome: { state: "completed", text: "" },
    });
    timers.advance(IDLE_MS);
    expect(s.closeCalls).toBe(1);
  });

  it("never closes a session with a live background task, until it finishes", () => {
    const pool = makePool();
    const lease = pool.acquire(key("ctx-a"));
    const s = fake(lease.session);
    s.tasks = [bgTask("bg-1")];
    lease.release();
    timers.advance(IDLE_MS * 10);
    expect(s.closeCalls).toBe(0);
    const finished = { ...bgTask("bg-1"), live: false, status: "completed" as const };
    s.tasks = [];
    s.emit({ type: "background_task_finished", task: finished });
    timers.advance(IDLE_MS);
    expect(s.closeCalls).toBe(1);
  });
});

describe("SessionPool: maxLive", () => {
  it("closes the least recently used idle session when one too many is live", () => {
    const pool = makePool({ maxLive: 2 });
    pool.acquire(key("a")).release();
    pool.acquire(key("b")).release();
    pool.acquire(key("a")).release(); // a is now more recent than b
    const [a, b] = created;
    pool.acquire(key("c"));
    expect(b?.closeCalls).toBe(1);
    expect(a?.closeCalls).toBe(0);
    expect([pool.has(key("a")), pool.has(key("b")), pool.has(key("c"))]).toEqual([
      true,
      false,
      true,
    ]);
  });

  it("never closes a busy session to make room", () => {
    const pool = makePool({ maxLive: 2 });
    const a = pool.acquire(key("a")); // leased
    const b = pool.acquire(key("b"));
    fake(b.session).setStatus("running");
    b.release(); // running
    pool.acquire(key("c")).release();
    const d = pool.acquire(key("d"));
    expect(created.map((s) => s.closeCalls)).toEqual([0, 0, 1, 0]);
    expect(pool.liveCount).toBe(3);
    expect(fake(a.session).closeCalls).toBe(0);
    expect(fake(d.session).closeCalls).toBe(0);
  });

  it("never closes the session it is creating for a caller, even when every other is busy", () => {
    const pool = makePool({ maxLive: 1 });
    const a = pool.acquire(key("a"));
    const b = pool.acquire(key("b"));
    expect(fake(b.session).closeCalls).toBe(0);
    expect(fake(a.session).closeCalls).toBe(0);
    expect(pool.peek(key("b"))).toBe(b.session);
    expect(pool.liveCount).toBe(2);
    // Once b is released (idle) the live set is trimmed back to maxLive.
    b.release();
    expect(fake(b.session).closeCalls).toBe(1);
    expect(pool.has(key("a"))).toBe(true);
  });

  it("trims back to maxLive when a busy session becomes idle", () => {
    const pool = makePool({ maxLive: 1 });
    const a = pool.acquire(key("a"));
    const b = pool.acquire(key("b"));
    fake(b.session).setStatus("running");
    b.release();
    a.release(); // a idle (least recent of the idle ones): trimmed
    expect(fake(a.session).closeCalls).toBe(1);
    expect(pool.has(key("b"))).toBe(true);
  });
});

describe("SessionPool: closeAll", () => {
  it("closes every session, busy or not, and refuses new leases", async () => {
    const pool = makePool();
    const a = pool.acquire(key("a"));
    fake(a.session).setStatus("running");
    pool.acquire(key("b")).release();
    await pool.closeAll();
    expect(created.map((s) => s.closeCalls)).toEqual([1, 1]);
    expect(pool.liveCount).toBe(0);
    expect(() => pool.acquire(key("a"))).toThrow("session pool is closed");
  });
});
