import { describe, expect, it } from "vitest";
import type { Timers } from "../../../../src/common/timers.js";
import {
  refreshDelayMs,
  refreshIndexLater,
} from "../../../../src/workspace/worktrees/index-refresh.js";

describe("refreshDelayMs: an index written after the wait is a second later than the files", () => {
  it.each([
    // written at, now, wait (ms)
    [10_000, 10_000, 1_020],
    [10_999, 10_999, 21],
    [10_999, 11_005, 15],
    [10_500, 11_020, 0],
    [10_500, 15_000, 0],
    [0, 0, 1_020],
  ])("written at %i, now %i: wait %i ms", (writtenAt, now, wait) => {
    expect(refreshDelayMs(writtenAt, now)).toBe(wait);
  });
});

/**
 * A refresh of a folder that is no worktree (had git run, it would have failed and said so),
 * files written at 5,000 ms, the clock at `now`, on timers whose timeouts run when the test says.
 */
function refreshAt(now: number) {
  const pending = new Map<number, () => void>();
  let next = 0;
  const timers: Timers = {
    setTimeout: (fn) => {
      pending.set(++next, fn);
      return next;
    },
    clearTimeout: (h) => void pending.delete(h as number),
  };
  const errors: unknown[] = [];
  const refresh = refreshIndexLater("/nonexistent-claude-a2a-dir", 5_000, (e) => errors.push(e), {
    timers,
    clock: { now: () => now },
  });
  return { refresh, pending, errors };
}

describe("refreshIndexLater", () => {
  it("waits for the clock, and a cancel during the wait runs no git at all", async () => {
    const { refresh, pending, errors } = refreshAt(5_000);
    expect(pending.size).toBe(1);
    await refresh.cancel();
    await refresh.done;
    expect(pending.size).toBe(0);
    expect(errors).toEqual([]);
  });

  it("says when git fails (the worktree then works as it is)", async () => {
    const { refresh, pending, errors } = refreshAt(9_000);
    for (const fire of pending.values()) fire();
    await refresh.done;
    expect(errors).toHaveLength(1);
  });
});
