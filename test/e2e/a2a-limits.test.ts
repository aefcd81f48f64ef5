/**
 * sessions.maxLive is a hard cap on Claude Code processes: with one allowed, a second context's
 * task waits `queued` until the first context's process is idle and closed, then completes.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Gate } from "../support/gated-inbox.js";
import { reply, text } from "../support/fake-model/index.js";
import {
  describeStream,
  sendRequest,
  startA2AHarness,
  userMessage,
  type A2AHarness,
} from "../support/a2a/harness.js";
import { resultText } from "../support/a2a/stream-view.js";
import type { StreamResponse } from "@a2a-js/sdk";

let h: A2AHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A gauge's value from the server's /metrics. */
async function metric(harness: A2AHarness, name: string): Promise<number | undefined> {
  const body = await (await fetch(`${harness.server.url}/metrics`)).text();
  const line = body.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe("A2A limits (real runtime)", () => {
  it("maxLive 1: a second context's task waits queued, then completes after the first", async () => {
    const first = new Gate();
    h = await startA2AHarness({
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
        { name: "second", match: { lastUserText: "Second context" }, reply: reply(text("SECOND")) },
      ],
    });
    const a: StreamResponse[] = [];
    const aDone = (async () => {
      for await (const e of h.client.sendMessageStream(sendRequest(userMessage("First context"))))
        a.push(e);
    })();
    await h.bench.model.waitForRequest((r) => r.lastUserText.includes("First context"));
    const b: StreamResponse[] = [];
    const bDone = (async () => {
      for await (const e of h.client.sendMessageStream(sendRequest(userMessage("Second context"))))
        b.push(e);
    })();
    await expect
      .poll(() => describeStream(b), { timeout: 30_000 })
      .toContain("status:submitted:queued");
    // Its process cannot start while the first one works: nothing of it reached the model.
    expect(h.bench.model.messageRequests.some((r) => r.lastUserText.includes("Second"))).toBe(
      false,
    );
    expect(h.spawns()).toBe(1);
    expect(await metric(h, "claude_a2a_queued_tasks")).toBe(1);
    first.open();
    await aDone;
    await bDone;
    expect(await metric(h, "claude_a2a_queued_tasks")).toBe(0);
    expect(resultText(a)).toBe("FIRST");
    expect(describeStream(b).at(-1)).toBe("status:completed");
    expect(resultText(b)).toBe("SECOND");
    expect(h.spawns()).toBe(2);
  }, 120_000);
});
