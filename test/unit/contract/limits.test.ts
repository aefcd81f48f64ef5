import { describe, expect, it } from "vitest";
import {
  budgetStopText,
  retryAfterSeconds,
  type Refusal,
  duration,
  limitErrorInfo,
  limitMessage,
} from "../../../src/contract/limits.js";
import { taskRateErrorInfo } from "../../support/unit/error-info.js";

const caller = (scope: string) => ({ scope, anonymous: scope === "unknown" });

const T = Date.UTC(2025, 0, 31, 21, 47, 30);
const MIDNIGHT = Date.UTC(2025, 1, 1);

describe("figures in the texts", () => {
  it.each([
    [1, "1 s"],
    [42_000, "42 s"],
    [59_001, "1 min"],
    [60_000, "1 min"],
    [61_000, "2 min"],
    [MIDNIGHT - T, "2 h 13 min"],
    [3_600_000, "1 h"],
  ])("duration(%i) = %s", (ms, text) => {
    expect(duration(ms)).toBe(text);
  });
});

describe("refusal messages and ErrorInfo", () => {
  /** `token:ci` past 3 tasks a minute, free again in 42 s. */
  const ciOverRate = [
    caller("token:ci"),
    { limit: "tasksPerMinute", max: 3, resetsAt: T + 42_000 },
    T,
  ] as const;

  it("names the limit, the caller's figures and when it resets", () => {
    expect(limitMessage(...ciOverRate)).toBe(
      "Caller limit reached (tasksPerMinute): token:ci may start at most 3 task(s) per minute; " +
        "try again in 42 s (at 2025-01-31T21:48:12.000Z).",
    );
    expect(
      limitMessage(caller("unknown"), { limit: "concurrentTasks", max: 2, working: 2 }, T),
    ).toBe(
      "Caller limit reached (concurrentTasks): the anonymous caller (unknown) may have at most " +
        "2 task(s) at once and has 2 not yet ended; try again when one of them ends.",
    );
    expect(
      limitMessage(
        caller("login:ada@example.com"),
        { limit: "dailyBudgetUsd", max: 1, spentUsd: 1.2, resetsAt: MIDNIGHT },
        T,
      ),
    ).toBe(
      "Caller limit reached (dailyBudgetUsd): login:ada@example.com has spent $1.20 today of a " +
        "daily budget of $1.00; new tasks are refused until it resets at 00:00 UTC " +
        "(2025-02-01T00:00:00.000Z, in 2 h 13 min).",
    );
  });

  it("the ErrorInfo has one reason per limit and string metadata", () => {
    expect(limitErrorInfo(...ciOverRate)).toEqual(
      taskRateErrorInfo({
        caller: "token:ci",
        max: "3",
        retryAfterSeconds: "42",
        resetsAt: "2025-01-31T21:48:12.000Z",
      }),
    );
    expect(
      limitErrorInfo(caller("token:ci"), { limit: "concurrentTasks", max: 2, working: 2 }, T),
    ).toMatchObject({
      reason: "CONCURRENT_TASK_LIMIT_EXCEEDED",
      metadata: { limit: "concurrentTasks", max: "2", working: "2" },
    });
    const budget = limitErrorInfo(
      caller("token:ci"),
      { limit: "dailyBudgetUsd", max: 1, spentUsd: 1.5, resetsAt: MIDNIGHT },
      T,
    );
    expect(budget).toMatchObject({
      reason: "DAILY_BUDGET_EXCEEDED",
      metadata: {
        spentUsd: "1.5",
        resetsAt: "2025-02-01T00:00:00.000Z",
        retryAfterSeconds: "7950",
      },
    });
    expect(budget.metadata).not.toHaveProperty("working");
  });

  it("the stop text says the task stopped after its turn, and whether its background work went", () => {
    const reached = {
      limit: "dailyBudgetUsd",
      max: 0.0003,
      spentUsd: 0.00033,
      resetsAt: MIDNIGHT,
    } as const;
    expect(budgetStopText(caller("unknown"), reached, false)).toBe(
      "Daily budget reached: the anonymous caller (unknown) has spent $0.00033 today of a daily " +
        "budget of $0.0003 (dailyBudgetUsd), so this task stopped after its turn; new tasks are " +
        "refused until 00:00 UTC (2025-02-01T00:00:00.000Z).",
    );
    expect(budgetStopText(caller("token:ci"), reached, true)).toContain(
      "stopped after its turn and its background work was stopped;",
    );
  });
});

describe("retryAfterSeconds", () => {
  it.each<[Refusal, number | undefined]>([
    [{ limit: "dailyBudgetUsd", max: 1, spentUsd: 1, resetsAt: MIDNIGHT }, 7950],
    [{ limit: "tasksPerMinute", max: 3, resetsAt: T + 1_500 }, 2],
    [{ limit: "tasksPerMinute", max: 3, resetsAt: T }, 1], // never 0: "now" would loop a client
    [{ limit: "concurrentTasks", max: 2, working: 2 }, undefined],
  ])("%o: Retry-After %s", (refusal, seconds) => {
    expect(retryAfterSeconds(refusal, T)).toBe(seconds);
  });
});
