/**
 * The startup sweep (`StaleSweep` through the pool): batches, one write per batch, progress for
 * /healthz, and a conversation used before the sweep reaches it checked on its own first. The
 * transcript checks are held by the test, so every order is chosen, none timed.
 */
import { describe, expect, it } from "vitest";
import type { SessionFactoryArgs } from "../../../src/sessions/pool.js";
import { staleOf, SWEEP_BATCH } from "../../../src/sessions/stale-sweep.js";
import { TRANSCRIPT_MISSING } from "../../../src/sessions/recovery.js";
import type { ConversationKey } from "../../../src/identity/conversation.js";
import { key, usePoolFixture } from "./support/pool.js";

class FakeSession {
  status = "idle";
  constructor(readonly args: SessionFactoryArgs) {}
  backgroundTasks() {
    return [];
  }
  subscribe() {
    return () => undefined;
  }
  close() {
    return Promise.resolve();
  }
}

const pools = usePoolFixture("claude-a2a-sweep-", (args) => new FakeSession(args));

/** Transcript checks that wait until the test answers them. */
function heldChecks() {
  const waiting = new Map<string, (exists: boolean) => void>();
  let arrived: () => void = () => undefined;
  return {
    check: (id: string) =>
      new Promise<boolean>((resolve) => {
        waiting.set(id, resolve);
        arrived();
      }),
    /** Resolves once `n` checks wait. */
    async waiting(n: number) {
      while (waiting.size < n) await new Promise<void>((r) => (arrived = r));
    },
    answer(id: string, exists: boolean) {
      waiting.get(id)?.(exists);
      waiting.delete(id);
    },
    answerAll(exists: (id: string) => boolean) {
      for (const id of [...waiting.keys()]) this.answer(id, exists(id));
    },
    get ids() {
      return [...waiting.keys()];
    },
  };
}

describe("the startup sweep", () => {
  it("decides a batch's drops: gone, still named, not live (pure)", () => {
    const k = (s: string) => s as ConversationKey;
    const current = new Map([
      [k("a"), "s-a"],
      [k("b"), "s-b2"],
      [k("c"), "s-c"],
      [k("d"), "s-d"],
    ]);
    const drops = staleOf(
      [
        { key: k("a"), sessionId: "s-a", exists: false },
        { key: k("b"), sessionId: "s-b", exists: false }, // moved on meanwhile
        { key: k("c"), sessionId: "s-c", exists: false }, // live
        { key: k("d"), sessionId: "s-d", exists: undefined }, // could not check
        { key: k("e"), sessionId: "s-e", exists: true },
      ],
      (key) => current.get(key),
      (key) => key === k("c"),
    );
    expect(drops).toEqual([{ key: k("a"), sessionId: "s-a" }]);
  });

  it("sweeps in batches with progress; a conversation used before its batch is checked first", async () => {
    const n = SWEEP_BATCH + 10;
    const ids = Array.from({ length: n }, (_, i) => `c${String(i).padStart(4, "0")}`);
    await Promise.all(ids.map((id) => pools.sessionMap.set(key(id), `s-${id}`)));
    const held = heldChecks();
    const pool = pools.pool({ checkTranscript: (id) => held.check(id) });
    expect(pool.sweepProgress).toMatchObject({ state: "pending", of: 0 });

    const sweep = pool.dropStaleSessions();
    expect(pool.sweepProgress).toEqual({ state: "running", checked: 0, of: n, dropped: 0 });
    await held.waiting(SWEEP_BATCH);
    expect(held.ids).toHaveLength(SWEEP_BATCH);

    // The last conversation, in the second batch, is used now: its own check goes first.
    const last = key(ids[n - 1] as string);
    const free = pool.whenFree(last);
    await held.waiting(SWEEP_BATCH + 1);
    held.answer(`s-${ids[n - 1] as string}`, false);
    await free;
    const lease = pool.acquire(last);
    expect(lease.reset).toEqual({
      previousSessionId: `s-${ids[n - 1] as string}`,
      reason: TRANSCRIPT_MISSING,
    });
    expect(pools.created.at(-1)?.args).toEqual({ key: last, resume: undefined });
    lease.release();
    expect(pool.sweepProgress.checked).toBe(1);

    // The first batch: every other one gone.
    held.answerAll((id) => Number(id.slice(3)) % 2 === 1);
    await held.waiting(n - SWEEP_BATCH - 1);
    expect(pool.sweepProgress).toMatchObject({
      state: "running",
      checked: SWEEP_BATCH + 1,
      dropped: SWEEP_BATCH / 2,
    });
    held.answerAll(() => true);
    const dropped = await sweep;
    expect(dropped).toHaveLength(SWEEP_BATCH / 2);
    expect(pool.sweepProgress).toEqual({
      state: "done",
      checked: n,
      of: n,
      dropped: SWEEP_BATCH / 2,
    });
    // The used conversation's mapping was never checked twice.
    expect(dropped).not.toContain(last);
    // A second call is the same run.
    expect(await pool.dropStaleSessions()).toBe(dropped);
    await pool.closeAll();
  });

  it("before the sweep starts (the server not serving yet), a first use is checked already", async () => {
    await pools.sessionMap.set(key("gone"), "s-gone");
    await pools.sessionMap.set(key("kept"), "s-kept");
    const held = heldChecks();
    const pool = pools.pool({ checkTranscript: (id) => held.check(id) });
    pool.prepareSweep();
    expect(pool.sweepProgress).toEqual({ state: "pending", checked: 0, of: 2, dropped: 0 });
    const free = pool.whenFree(key("gone"));
    await held.waiting(1);
    held.answer("s-gone", false);
    await free;
    expect(pool.acquire(key("gone")).reset?.previousSessionId).toBe("s-gone");
    // The sweep, started later, checks only what is left.
    const sweep = pool.dropStaleSessions();
    await held.waiting(1);
    expect(held.ids).toEqual(["s-kept"]);
    held.answer("s-kept", true);
    expect(await sweep).toEqual([]);
    expect(pool.sweepProgress).toEqual({ state: "done", checked: 2, of: 2, dropped: 0 });
    await pool.closeAll();
  });

  it("a conversation used while its batch is being checked waits for that batch: it starts fresh, never on the dropped mapping", async () => {
    await pools.sessionMap.set(key("gone"), "s-gone");
    const held = heldChecks();
    const pool = pools.pool({ checkTranscript: (id) => held.check(id) });
    const sweep = pool.dropStaleSessions();
    await held.waiting(1);
    // The batch holds it: the first use must not resume it before the batch says.
    let freed = false;
    const free = pool.whenFree(key("gone")).then(() => (freed = true));
    await Promise.resolve();
    expect(freed).toBe(false);
    expect(held.ids).toEqual(["s-gone"]); // no second check of its own
    held.answer("s-gone", false);
    await free;
    const lease = pool.acquire(key("gone"));
    expect(lease.reset).toEqual({ previousSessionId: "s-gone", reason: TRANSCRIPT_MISSING });
    expect(pools.created.at(-1)?.args).toEqual({ key: key("gone"), resume: undefined });
    lease.release();
    expect(await sweep).toEqual([key("gone")]);
    await pool.closeAll();
  });
});
