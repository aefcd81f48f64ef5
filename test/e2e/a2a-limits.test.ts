/**
 * sessions.maxLive is a hard cap on Claude Code processes: with one allowed, a second context's
 * task waits `queued` until the first context's process is idle and closed, then completes. A new
 * conversation at a pool full of idle processes does not wait: the least recently used one is
 * closed for it at once, grace or not.
 */
import { describe, expect, it } from "vitest";
import { Gate } from "../support/gated-inbox.js";
import {
  a2a,
  describeStream,
  idsOf,
  metricValue,
  reply,
  resultText,
  says,
  text,
} from "../support/harness/index.js";
import { conversationKeyOf } from "../support/a2a/background.js";
import type { StreamResponse } from "@a2a-js/sdk";

describe("A2A limits (real runtime)", () => {
  it("maxLive 1: a second context's task waits queued, then completes after the first", async () => {
    const first = new Gate();
    const h = await a2a({
      config: { sessions: { maxLive: 1, minIdleBeforeEvictMs: 0 } },
      rules: [
        {
          name: "slow",
          match: { lastUserText: "First context" },
          reply: async () => {
            await first.opened;
            return reply(text("FIRST"));
          },
        },
        says("Second context", "SECOND", "second"),
      ],
    });
    const a = h.watch("First context");
    await h.bench.model.waitForRequest((r) => r.lastUserText.includes("First context"));
    const b = h.watch("Second context");
    await expect
      .poll(() => describeStream(b.items), { timeout: 30_000 })
      .toContain("status:submitted:queued");
    // Its process cannot start while the first one works: nothing of it reached the model.
    expect(h.bench.model.messageRequests.some((r) => r.lastUserText.includes("Second"))).toBe(
      false,
    );
    expect(h.spawns()).toBe(1);
    expect(await metricValue(h.server.url, "claude_a2a_queued_tasks")).toBe(1);
    first.open();
    await a.done;
    await b.done;
    expect(await metricValue(h.server.url, "claude_a2a_queued_tasks")).toBe(0);
    expect(resultText(a.items)).toBe("FIRST");
    expect(describeStream(b.items).at(-1)).toBe("status:completed");
    expect(resultText(b.items)).toBe("SECOND");
    expect(h.spawns()).toBe(2);
  }, 120_000);

  it("maxLive 2, default grace: a third conversation after two finished turns closes the least recently used idle process at once and is never queued", async () => {
    const h = await a2a({
      // The default grace (sessions.minIdleBeforeEvictMs): whatever it is, no one waits for it.
      config: { sessions: { maxLive: 2 } },
      rules: ["First", "Second", "Third"].map((word) => ({
        name: word,
        match: { lastUserText: `${word} conversation` },
        reply: reply(text(word.toUpperCase())),
      })),
    });
    const harness = h;
    const turn = (word: string) => harness.stream(`${word} conversation`);
    const a = await turn("First");
    const b = await turn("Second");
    expect([resultText(a), resultText(b)]).toEqual(["FIRST", "SECOND"]);
    const cwd = harness.bench.sandbox.cwd;
    const keyOf = async (events: StreamResponse[]) => {
      const { contextId } = idsOf(events);
      await expect.poll(() => conversationKeyOf(cwd, contextId), { timeout: 20_000 }).toBeDefined();
      return conversationKeyOf(cwd, contextId);
    };
    const [keyA, keyB] = [await keyOf(a), await keyOf(b)];
    // Both idle processes fill the two slots.
    expect(harness.server.pool.liveCount).toBe(2);

    const c = await turn("Third");
    expect(resultText(c)).toBe("THIRD");
    expect(describeStream(c).at(-1)).toBe("status:completed");
    // It never waited for a busy process (nor for an idle one to age): no queued status.
    expect(describeStream(c)).not.toContain("status:submitted:queued");
    // The pool: the least recently used conversation's process went, the other stayed, the cap held.
    const pool = harness.server.pool;
    const keyC = await keyOf(c);
    expect([keyA, keyB, keyC].map((k) => k !== undefined && pool.has(k))).toEqual([
      false,
      true,
      true,
    ]);
    expect(pool.processCount).toBe(2);
    expect(harness.spawns()).toBe(3);
    expect(await metricValue(harness.server.url, "claude_a2a_queued_tasks")).toBe(0);
  }, 120_000);
});
