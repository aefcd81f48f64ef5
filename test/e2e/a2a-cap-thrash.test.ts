/**
 * Thrash under sessions.maxLive is visible: with a cap of one process and two conversations
 * taking turns, every turn closes the other conversation's process and resumes its own.
 * /metrics counts the cap's evictions and the resumes they caused, and the server says so in one
 * warn line (at most one a minute: the test's clock stands still, so every resume is in one
 * window).
 */
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { a2a, idsOf, metricValue, resultText, says } from "../support/harness/index.js";

const THRASH_LINE = "sessions.maxLive is thrashing";

describe("sessions.maxLive thrash (real runtime)", () => {
  it("a cap of 1 with two alternating conversations counts cap-caused resumes and warns once", async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level: "warn" },
      { write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>) },
    );
    const h = await a2a({
      config: { sessions: { maxLive: 1, minIdleBeforeEvictMs: 0 } },
      rules: [says("Alpha ", "ALPHA"), says("Beta ", "BETA")],
      clock: { now: () => Date.UTC(2026, 0, 1) },
      logger,
    });
    const first = {
      Alpha: idsOf(await h.stream("Alpha 0")).contextId,
      Beta: idsOf(await h.stream("Beta 0")).contextId,
    };
    // The first turns: each conversation's first session; Beta's closed Alpha's process.
    expect(await metricValue(h.server.url, "claude_a2a_cap_resumes_total")).toBe(0);
    expect(await metricValue(h.server.url, "claude_a2a_cap_evictions_total")).toBe(1);
    const rounds = 4;
    for (let i = 1; i <= rounds; i++) {
      for (const word of ["Alpha", "Beta"] as const) {
        const events = await h.stream(`${word} ${i}`, { contextId: first[word] });
        expect(resultText(events)).toBe(word.toUpperCase());
      }
    }
    // Every later turn resumed its conversation after the cap closed it.
    expect(await metricValue(h.server.url, "claude_a2a_cap_resumes_total")).toBe(2 * rounds);
    expect(await metricValue(h.server.url, "claude_a2a_cap_evictions_total")).toBe(2 * rounds + 1);
    expect(h.spawns()).toBe(2 * rounds + 2);
    const warned = lines.filter((l) => String(l.msg).startsWith(THRASH_LINE));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ level: 40, maxLive: 1, windowSeconds: 60 });
  }, 240_000);
});
