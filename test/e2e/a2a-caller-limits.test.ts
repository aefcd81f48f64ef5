/**
 * A daily budget per caller with the real runtime, whose own cost figures are what is counted
 * (the scripted model's 10 input and 20 output tokens of claude-sonnet-4-5: $0.00033 a reply):
 * the task that reaches it completes saying so, the next is refused, still after a restart
 * (SQLite store), and admitted again at the next UTC day (the clock seam).
 */
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { a2a, messageText, says } from "../support/harness/index.js";

const NOW = Date.UTC(2025, 5, 1, 18, 30);
const NEXT_DAY = Date.UTC(2025, 5, 2);

/** What the official client throws for a JSON-RPC error it has no class for. */
interface TransportError {
  readonly message: string;
  readonly envelopeCode?: number;
  readonly data?: { reason?: string; domain?: string; metadata?: Record<string, string> }[];
}

async function refusal(send: Promise<unknown>): Promise<TransportError> {
  try {
    await send;
  } catch (err) {
    return err as TransportError;
  }
  throw new Error("the request was not refused");
}

describe("per-caller daily budget (real runtime)", () => {
  it("reached by one task: it completes saying so; the next is refused, also after a restart, until the next UTC day", async () => {
    const clock = { ms: NOW };
    const h = await a2a({
      config: { limits: { default: { dailyBudgetUsd: 0.0003 } } },
      clock: { now: () => clock.ms },
      rules: [says("Say hi", "Hi!", "answer")],
    });

    const first = await h.send("Say hi");
    expect(first.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(first.status?.message?.metadata?.kind).toBe("budget_reached");
    expect(messageText(first.status?.message)).toMatch(
      /^Daily budget reached: the anonymous caller \(unknown\) has spent \$0\.00033 today of a daily budget of \$0\.0003 \(dailyBudgetUsd\), so this task stopped after its turn; new tasks are refused until 00:00 UTC \(2025-06-02T00:00:00\.000Z\)\.$/,
    );

    const expectRefused = async () => {
      const err = await refusal(h.send("Say hi again"));
      expect(err.envelopeCode).toBe(-32029);
      expect(err.message).toContain("Caller limit reached (dailyBudgetUsd)");
      const info = err.data?.find((d) => d.domain === "claude-a2a");
      expect(info?.reason).toBe("DAILY_BUDGET_EXCEEDED");
      expect(info?.metadata?.resetsAt).toBe("2025-06-02T00:00:00.000Z");
    };
    await expectRefused();
    const asked = h.bench.model.messageRequests.length;

    await h.restart();
    await expectRefused();
    expect(h.bench.model.messageRequests).toHaveLength(asked); // refused before any task ran

    clock.ms = NEXT_DAY;
    const next = await h.send("Say hi");
    expect(next.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  }, 120_000);
});
