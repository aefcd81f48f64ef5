/**
 * The startup sweep of the session map runs once the server serves (docs/storage.md, "Stale
 * sessions"): a server whose map holds 2,000 stale entries answers its card and /healthz at once,
 * /healthz says how far the sweep is, and a conversation used meanwhile resumes.
 */
import { randomUUID } from "node:crypto";
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { a2a, messageText, says } from "../support/harness/index.js";
import { addStaleSessions, readSessionMap } from "../support/harness/session-map.js";

const STALE = 2_000;

interface Sweep {
  state: "pending" | "running" | "done";
  checked: number;
  of: number;
  dropped: number;
}

const sweepOf = async (url: string): Promise<Sweep> => {
  const health = (await (await fetch(`${url}/healthz`)).json()) as { sessionSweep?: Sweep };
  if (health.sessionSweep === undefined) throw new Error("/healthz has no sessionSweep");
  return health.sessionSweep;
};

describe("durability: the session map's startup sweep", () => {
  it("serves at once with 2,000 stale mappings, says so on /healthz, and resumes a conversation used meanwhile", async () => {
    const h = await a2a({
      rules: [says("Hello there", "Hi, nice to meet you."), says("Second message", "Resumed.")],
    });
    const cwd = h.bench.sandbox.cwd;
    // After every "stale-<i>" in key order: the sweep's last.
    const first = await h.send("Hello there", { contextId: `zz-last-${randomUUID()}` });
    expect(first.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const { contextId } = first;
    await h.server.close();
    const before = readSessionMap(cwd);
    expect(before.size).toBe(1);
    addStaleSessions(cwd, STALE);

    await h.restart();
    const card = await fetch(`${h.server.url}/.well-known/agent-card.json`);
    expect(card.status).toBe(200);
    const early = await sweepOf(h.server.url);
    expect(early.of).toBe(STALE + 1);
    // Whenever it is read, a sweep under way has not checked everything yet.
    if (early.state !== "done") expect(early.checked).toBeLessThan(early.of);

    // The conversation is the sweep's last: used now, it is checked on its own and resumes.
    const second = await h.send("Second message", { contextId });
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const kinds = second.history.map((m) => String(m.metadata?.kind ?? m.role));
    expect(kinds).not.toContain("session_reset");
    expect(messageText(second.history.at(-1))).toContain("Resumed.");
    // Claude knew the earlier exchange: the session was resumed, not started fresh.
    const request = h.bench.model.messageRequests.at(-1);
    expect(JSON.stringify(request?.body.messages)).toContain("Hi, nice to meet you.");

    // Bounded wait on /healthz itself (vitest's timeout bounds it), not a tuned sleep.
    let sweep = early;
    while (sweep.state !== "done") {
      await new Promise((resolve) => setTimeout(resolve, 50));
      sweep = await sweepOf(h.server.url);
    }
    expect(sweep).toEqual({ state: "done", checked: STALE + 1, of: STALE + 1, dropped: STALE });
    await h.server.close();
    const after = readSessionMap(cwd);
    expect([...after.keys()]).toEqual([...before.keys()]);
    expect(after.get([...before.keys()][0] as string)?.sessionId).toBe(
      before.get([...before.keys()][0] as string)?.sessionId,
    );
    expect(h.bench.model.unmatched).toEqual([]);
  }, 180_000);
});
