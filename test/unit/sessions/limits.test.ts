import { beforeEach, describe, expect, it } from "vitest";
import type { BackgroundTask, SessionEvent, SessionListener } from "../../../src/claude/index.js";
import { describeMs } from "../../../src/contract/texts.js";
import { backgroundClock, backgroundLimitReason } from "../../../src/sessions/background-limit.js";
import {
  SERVER_STOPPING,
  type SessionFactoryArgs,
  type SessionPool,
  type SessionPoolOptions,
} from "../../../src/sessions/pool.js";
import { key, ManualTimers, usePoolFixture } from "./support/pool.js";

/** A session whose close() completes only when the test says (a process shutting down). */
class FakeSession {
  status = "idle";
  tasks: BackgroundTask[] = [];
  foregroundActive = false;
  /** `stopBackgroundTask` calls: task id and reason. */
  readonly stops: { taskId: string; reason: string | undefined }[] = [];
  closeReason: string | undefined;
  private readonly listeners = new Set<SessionListener>();
  private finishClose: (() => void) | undefined;
  closing = false;
  constructor(readonly args: SessionFactoryArgs) {}
  backgroundTasks() {
    return this.tasks;
  }
  stopBackgroundTask(taskId: string, reason?: string) {
    this.stops.push({ taskId, reason });
    return Promise.resolve();
  }
  subscribe(listener: SessionListener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  close(reason?: string) {
    this.closing = true;
    this.closeReason = reason;
    return new Promise<void>((resolve) => (this.finishClose = resolve));
  }
  exited() {
    this.finishClose?.();
  }
  emit(event: SessionEvent) {
    for (const l of [...this.listeners]) l(event);
  }
}

const pools = usePoolFixture("a2a-limits-", (args) => new FakeSession(args));
const { created } = pools;
let clock: ManualTimers;
beforeEach(() => {
  clock = new ManualTimers();
});

const makePool = (
  maxLive: number,
  minIdleBeforeEvictMs = 0,
  over: Partial<SessionPoolOptions> = {},
) =>
  pools.pool({
    idleTimeoutMs: 3_600_000,
    maxLive,
    minIdleBeforeEvictMs,
    now: () => clock.now,
    timers: clock,
    ...over,
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
    await pool.whenFree(key("a"));
    const a = pool.acquire(key("a"));
    const waitB = pool.whenFree(key("b"));
    expect(await settled(waitB)).toBe(false);
    expect(pool.waiting).toBe(1);

    a.release(); // idle now: evicted for the waiting context…
    expect(created[0]?.closing).toBe(true);
    // …but its process still counts until it has exited.
    expect(pool.processCount).toBe(1);
    expect(await settled(waitB)).toBe(false);
    created[0]?.exited();
    expect(await settled(waitB)).toBe(true);
    const b = pool.acquire(key("b"));
    expect(pool.processCount).toBe(1);
    b.release();
  });

  it("a live context never waits; waiters are served first come, first served", async () => {
    const pool = makePool(1);
    await pool.whenFree(key("a"));
    const a = pool.acquire(key("a"));
    expect(await settled(pool.whenFree(key("a")))).toBe(true);
    const b = pool.whenFree(key("b"));
    const c = pool.whenFree(key("c"));
    a.release();
    created[0]?.exited();
    expect(await settled(b)).toBe(true);
    expect(await settled(c)).toBe(false);
    pool.acquire(key("b")).release();
    created[1]?.exited();
    expect(await settled(c)).toBe(true);
  });

  it("a waiting conversation gets an idle session's slot at once, even one whose last turn just ended", async () => {
    const pool = makePool(1, 10_000);
    await pool.whenFree(key("a"));
    pool.acquire(key("a")).release(); // idle since t=0: in its grace
    // Nobody waits: an idle session keeps its process.
    expect(created[0]?.closing).toBe(false);
    // Only a process to exit, no busy one to wait for: the task is not queued.
    expect(pool.wouldWait(key("b"))).toBe(false);
    const waitB = pool.whenFree(key("b"));
    // Closed at once, with no time passing: the grace never makes b wait.
    expect(created[0]?.closing).toBe(true);
    expect(await settled(waitB)).toBe(false);
    created[0]?.exited();
    expect(await settled(waitB)).toBe(true);
    pool.acquire(key("b")).release();
    expect(pool.processCount).toBe(1);
  });

  it("the grace orders the victims: a session idle past it goes before one just idle, even a less recently used one", async () => {
    const pool = makePool(2, 1_000);
    // a's message starts background work that outlives its lease: a is used first, idle last.
    await pool.whenFree(key("a"));
    const leaseA = pool.acquire(key("a"));
    const a = created[0] as FakeSession;
    a.tasks = [job("build-1")];
    a.emit({ type: "background_task_started", task: job("build-1") });
    leaseA.release();
    await pool.whenFree(key("b"));
    pool.acquire(key("b")).release(); // idle since t=0
    clock.advance(5_000);
    a.tasks = [];
    a.emit({ type: "background_task_finished", task: { ...job("build-1"), status: "completed" } });
    // a is the least recently used but idle only now; b has been idle 5 s.
    const waitC = pool.whenFree(key("c"));
    expect(created.map((s) => s.closing)).toEqual([false, true]);
    created[1]?.exited();
    expect(await settled(waitC)).toBe(true);
  });

  it("8 conversations taking turns on 4 slots are served in turn: none starves, the cap holds", async () => {
    const pool = makePool(4, 1_000);
    const served: string[] = [];
    let peak = 0;
    /** One client: `turns` one-turn tasks in its conversation, each as soon as the last ended. */
    const client = async (name: string, turns: number) => {
      for (let i = 0; i < turns; i++) {
        await pool.whenFree(key(name));
        const lease = pool.acquire(key(name));
        served.push(name);
        peak = Math.max(peak, pool.processCount);
        await new Promise((resolve) => setImmediate(resolve)); // the turn
        lease.release();
      }
    };
    const names = ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"];
    const clients = Promise.all(names.map((n) => client(n, 3)));
    // Processes exit when the test says: let every closed one go until all clients are done.
    let done = false;
    void clients.then(() => (done = true));
    for (let spins = 0; !done && spins < 1_000; spins++) {
      for (const s of created) if (s.closing) s.exited();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(done).toBe(true);
    expect(peak).toBeLessThanOrEqual(4);
    // First come, first served: every conversation's turn n comes before any one's turn n + 1.
    const rounds = [0, 1, 2].map((r) => served.slice(r * 8, r * 8 + 8).sort());
    for (const round of rounds) expect(round).toEqual(names);
  });
});

describe("SessionPool: leaving the wait", () => {
  it("an aborted wait leaves the queue; a kept slot given back with forgo() serves the next", async () => {
    const pool = makePool(1);
    await pool.whenFree(key("a"));
    const a = pool.acquire(key("a"));
    const abort = new AbortController();
    const b = pool.whenFree(key("b"), abort.signal);
    const c = pool.whenFree(key("c"));
    abort.abort();
    await expect(b).rejects.toThrow("aborted");
    expect(pool.waiting).toBe(1);
    a.release();
    created[0]?.exited();
    expect(await settled(c)).toBe(true);
    // c's task is canceled before it acquires: the slot goes back.
    const d = pool.whenFree(key("d"));
    expect(await settled(d)).toBe(false);
    pool.forgo();
    expect(await settled(d)).toBe(true);
  });
});

const job = (taskId: string): BackgroundTask => ({
  taskId,
  description: "npm run dev",
  backgrounded: true,
  live: true,
  ambient: false,
  status: "running",
});

/** The events a session emits as a client's message runs in it (the fake's flags follow). */
function foregroundRun(s: FakeSession, runId: string): { end(): void } {
  s.foregroundActive = true;
  s.emit({ type: "run_started", runId, origin: "foreground" });
  return {
    end() {
      s.foregroundActive = false;
      s.emit({
        type: "run_ended",
        runId,
        origin: "foreground",
        outcome: { state: "completed", text: "" },
      });
    },
  };
}

describe("SessionPool: sessions.maxBackgroundMs", () => {
  const LIMIT = 4 * 3_600_000;

  /** Context a: a message started a never-ending job, and its run ended. */
  function backgroundOnly(pool: SessionPool): FakeSession {
    const lease = pool.acquire(key("a"));
    const s = created.at(-1) as FakeSession;
    const run = foregroundRun(s, "r1");
    s.tasks = [job("dev-1")];
    s.emit({ type: "background_task_started", task: job("dev-1") });
    run.end();
    lease.release();
    return s;
  }

  it("a session busy only with background work holds its slot; after the limit the work is stopped, saying why, and the waiting context gets the process", async () => {
    const pool = makePool(1, 0, { maxBackgroundMs: LIMIT });
    await pool.whenFree(key("a"));
    const s = backgroundOnly(pool);
    const waitB = pool.whenFree(key("b"));
    clock.advance(LIMIT - 1);
    // Counted as busy: never evicted for the waiting context, work untouched.
    expect(s.closing).toBe(false);
    expect(s.stops).toEqual([]);
    expect(await settled(waitB)).toBe(false);

    clock.advance(1);
    expect(s.stops).toEqual([{ taskId: "dev-1", reason: backgroundLimitReason(LIMIT) }]);
    // Evictable at once, even before the runtime confirms the stop.
    expect(s.closing).toBe(true);
    s.exited();
    expect(await settled(waitB)).toBe(true);
  });

  it("a client's message restarts the clock: the limit counts time with nothing but background work", () => {
    const pool = makePool(4, 0, { maxBackgroundMs: LIMIT });
    const s = backgroundOnly(pool);
    clock.advance(LIMIT - 1_000);
    const lease = pool.acquire(key("a"));
    const run = foregroundRun(s, "r2");
    clock.advance(LIMIT); // a long turn: the work is in use, never stopped meanwhile
    expect(s.stops).toEqual([]);
    run.end();
    lease.release();
    clock.advance(LIMIT - 1);
    expect(s.stops).toEqual([]);
    clock.advance(1);
    expect(s.stops.map((x) => x.taskId)).toEqual(["dev-1"]);
  });

  it("wakes the work causes do not restart the clock; work that ends by itself disarms it", () => {
    const pool = makePool(4, 0, { maxBackgroundMs: LIMIT });
    const s = backgroundOnly(pool);
    clock.advance(LIMIT / 2);
    s.emit({ type: "run_started", runId: "w1", origin: "autonomous" });
    s.emit({
      type: "run_ended",
      runId: "w1",
      origin: "autonomous",
      outcome: { state: "completed", text: "" },
    });
    clock.advance(LIMIT / 2);
    expect(s.stops.map((x) => x.taskId)).toEqual(["dev-1"]);

    // Another session whose job finishes before the limit: nothing is stopped.
    const lease = pool.acquire(key("b"));
    const t = created.at(-1) as FakeSession;
    t.tasks = [job("build-1")];
    t.emit({ type: "background_task_started", task: job("build-1") });
    lease.release();
    clock.advance(LIMIT - 1);
    t.tasks = [];
    t.emit({ type: "background_task_finished", task: { ...job("build-1"), status: "completed" } });
    clock.advance(LIMIT * 2);
    expect(t.stops).toEqual([]);
  });

  it("0 (or unset) never stops background work", () => {
    const pool = makePool(4, 0, { maxBackgroundMs: 0 });
    const s = backgroundOnly(pool);
    clock.advance(LIMIT * 100);
    expect(s.stops).toEqual([]);
    expect(s.closing).toBe(false);
  });
});

describe("SessionPool: shutdown", () => {
  it("closeAll tells each session the server is stopping; other closes give no reason", async () => {
    const pool = makePool(1);
    await pool.whenFree(key("a"));
    pool.acquire(key("a")).release();
    const waitB = pool.whenFree(key("b")); // a is evicted for b: an ordinary close
    expect(created[0]?.closing).toBe(true);
    expect(created[0]?.closeReason).toBeUndefined();
    created[0]?.exited();
    await waitB;
    pool.acquire(key("b"));
    const closing = pool.closeAll();
    expect(created[1]?.closeReason).toBe(SERVER_STOPPING);
    created[1]?.exited();
    await closing;
  });
});

describe("SessionPool: shutdown and the waiting line", () => {
  it("closeAll sends every waiting context away with the reason, and later calls too", async () => {
    const pool = makePool(1);
    await pool.whenFree(key("a"));
    pool.acquire(key("a"));
    const waitB = pool.whenFree(key("b"));
    const closing = pool.closeAll();
    await expect(waitB).rejects.toThrow(SERVER_STOPPING);
    expect(pool.waiting).toBe(0);
    await expect(pool.whenFree(key("c"))).rejects.toThrow(SERVER_STOPPING);
    created[0]?.exited();
    await closing;
    // The process that went does not hand its slot to anyone.
    expect(created).toHaveLength(1);
  });
});

describe("background-limit decisions", () => {
  it.each([
    [false, { background: 1, foreground: false }, "arm"],
    [true, { background: 2, foreground: false }, "keep"],
    [true, { background: 1, foreground: true }, "disarm"],
    [true, { background: 0, foreground: false }, "disarm"],
    [false, { background: 0, foreground: false }, "keep"],
    [false, { background: 1, foreground: true }, "keep"],
  ] as const)("armed %s, %o: %s", (armed, activity, action) => {
    expect(backgroundClock(armed, activity)).toBe(action);
  });

  it("names the limit in the largest whole unit", () => {
    expect(describeMs(4 * 3_600_000)).toBe("4 h");
    expect(describeMs(90 * 60_000)).toBe("90 min");
    expect(describeMs(3_000)).toBe("3 s");
    expect(describeMs(1_500)).toBe("1500 ms");
    expect(backgroundLimitReason(3_000)).toBe(
      "the server stopped it after 3 s with no other activity in its session (sessions.maxBackgroundMs)",
    );
  });
});
