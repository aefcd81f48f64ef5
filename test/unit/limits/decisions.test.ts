import { describe, expect, it } from "vitest";
import type { LimitsConfig } from "../../../src/config/limits-schema.js";
import {
  admission,
  anyLimit,
  budgetReached,
  limitsFor,
  nextUtcDay,
  scopeMatches,
  utcDay,
  type CallerLimitValues,
  type CallerUsageNow,
  type Refusal,
} from "../../../src/limits/decisions.js";

const T = Date.UTC(2025, 0, 31, 23, 59, 30); // 30 s before a new UTC day
const MIDNIGHT = Date.UTC(2025, 1, 1);

describe("scopeMatches", () => {
  it.each([
    ["token:ci", "token:ci", true],
    ["token:ci", "token:ci2", false],
    ["token:*", "token:ci", true],
    ["token:*", "login:ci", false],
    ["login:*@example.com", "login:ada@example.com", false], // only a trailing * is a wildcard
    ["*", "unknown", true],
    ["unknown", "unknown", true],
    ["unknown", "login:unknown", false],
    ["oidc:https://issuer.example*", "oidc:https://issuer.example|sub-1", true],
  ])("%s matches %s: %s", (pattern, scope, expected) => {
    expect(scopeMatches(pattern, scope)).toBe(expected);
  });
});

describe("limitsFor", () => {
  const config: LimitsConfig = {
    default: { tasksPerMinute: 10, concurrentTasks: 2, dailyBudgetUsd: 5 },
    callers: [
      { match: "token:ci", tasksPerMinute: null, dailyBudgetUsd: 50 },
      { match: "token:*", concurrentTasks: 1 },
      { match: "token:batch", concurrentTasks: 20 }, // never reached: token:* comes first
    ],
  };
  it.each<[string, CallerLimitValues]>([
    // First matching entry, key by key over the default; null is "no limit".
    ["token:ci", { tasksPerMinute: undefined, concurrentTasks: 2, dailyBudgetUsd: 50 }],
    ["token:batch", { tasksPerMinute: 10, concurrentTasks: 1, dailyBudgetUsd: 5 }],
    ["login:ada", { tasksPerMinute: 10, concurrentTasks: 2, dailyBudgetUsd: 5 }],
    ["unknown", { tasksPerMinute: 10, concurrentTasks: 2, dailyBudgetUsd: 5 }],
  ])("%s", (scope, expected) => {
    expect(limitsFor(config, scope)).toEqual(expected);
  });

  it("with nothing configured, nothing is limited and nothing counted", () => {
    const none: LimitsConfig = { default: {}, callers: [] };
    expect(limitsFor(none, "unknown")).toEqual({
      tasksPerMinute: undefined,
      concurrentTasks: undefined,
      dailyBudgetUsd: undefined,
    });
    expect(anyLimit(none)).toBe(false);
    expect(anyLimit({ default: {}, callers: [{ match: "token:ci", dailyBudgetUsd: 1 }] })).toBe(
      true,
    );
    expect(anyLimit({ default: {}, callers: [{ match: "token:ci", dailyBudgetUsd: null }] })).toBe(
      false,
    );
  });
});

describe("UTC days", () => {
  it.each([
    [T, "2025-01-31", MIDNIGHT],
    [MIDNIGHT, "2025-02-01", MIDNIGHT + 86_400_000],
    [MIDNIGHT - 1, "2025-01-31", MIDNIGHT],
  ])("%i is in %s; the next day starts at %i", (ms, day, next) => {
    expect(utcDay(ms)).toBe(day);
    expect(nextUtcDay(ms)).toBe(next);
  });
});

const LIMITS: CallerLimitValues = { tasksPerMinute: 3, concurrentTasks: 2, dailyBudgetUsd: 1 };
const usage = (u: Partial<CallerUsageNow>): CallerUsageNow => ({
  starts: [],
  working: 0,
  spentTodayUsd: 0,
  ...u,
});

describe("admission", () => {
  it.each<[string, CallerLimitValues, CallerUsageNow, Refusal | undefined]>([
    ["nothing used", LIMITS, usage({}), undefined],
    [
      "no limits at all",
      {
        ...LIMITS,
        tasksPerMinute: undefined,
        concurrentTasks: undefined,
        dailyBudgetUsd: undefined,
      },
      usage({ starts: [T, T, T, T], working: 9, spentTodayUsd: 9 }),
      undefined,
    ],
    [
      "two starts in the window: a third fits",
      LIMITS,
      usage({ starts: [T - 1000, T - 2000] }),
      undefined,
    ],
    [
      "three starts in the window: refused until the oldest leaves it",
      LIMITS,
      usage({ starts: [T - 1000, T - 50_000, T - 20_000] }),
      { limit: "tasksPerMinute", max: 3, resetsAt: T - 50_000 + 60_000 },
    ],
    [
      "five in the window (the limit was lowered): refused until three have left",
      LIMITS,
      usage({ starts: [T - 1, T - 2, T - 3, T - 4, T - 5] }),
      { limit: "tasksPerMinute", max: 3, resetsAt: T - 3 + 60_000 },
    ],
    [
      "starts older than a minute do not count",
      LIMITS,
      usage({ starts: [T - 60_000, T - 70_000, T - 61_000] }),
      undefined,
    ],
    ["one working: a second fits", LIMITS, usage({ working: 1 }), undefined],
    [
      "two working",
      LIMITS,
      usage({ working: 2 }),
      { limit: "concurrentTasks", max: 2, working: 2 },
    ],
    ["under the budget", LIMITS, usage({ spentTodayUsd: 0.99 }), undefined],
    [
      "at the budget: refused until the next UTC day",
      LIMITS,
      usage({ spentTodayUsd: 1 }),
      { limit: "dailyBudgetUsd", max: 1, spentUsd: 1, resetsAt: MIDNIGHT },
    ],
    [
      "every limit reached: the budget is named (it resets last)",
      LIMITS,
      usage({ starts: [T, T, T], working: 2, spentTodayUsd: 3 }),
      { limit: "dailyBudgetUsd", max: 1, spentUsd: 3, resetsAt: MIDNIGHT },
    ],
    [
      "rate and concurrency reached: concurrency is named",
      LIMITS,
      usage({ starts: [T, T, T], working: 2 }),
      { limit: "concurrentTasks", max: 2, working: 2 },
    ],
  ])("%s", (_name, limits, used, expected) => {
    expect(admission(limits, used, T)).toEqual(expected);
  });
});

describe("budgetReached", () => {
  it("the budget is reached at its value, not before", () => {
    expect(budgetReached(LIMITS, 0.999, T)).toBeUndefined();
    expect(budgetReached(LIMITS, 1, T)).toEqual({
      limit: "dailyBudgetUsd",
      max: 1,
      spentUsd: 1,
      resetsAt: MIDNIGHT,
    });
    expect(budgetReached({ ...LIMITS, dailyBudgetUsd: undefined }, 100, T)).toBeUndefined();
  });
});
