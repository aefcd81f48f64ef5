import type { BudgetReached, LimitName, Refusal } from "../contract/limits.js";
import type { LimitsConfig } from "../config/limits-schema.js";

export type { BudgetReached, Refusal } from "../contract/limits.js";

/**
 * The decisions of per-caller limits, pure: which limits apply to a caller, whether a new task is
 * over one of them, and when that limit resets. Time is an argument (epoch ms), never read here.
 */

/** A caller's limits, resolved; undefined: no limit. */
export interface CallerLimitValues {
  readonly tasksPerMinute: number | undefined;
  readonly concurrentTasks: number | undefined;
  readonly dailyBudgetUsd: number | undefined;
}

/** What a caller has used, as the decision needs it. */
export interface CallerUsageNow {
  /** When its admitted tasks started (epoch ms), any order; only the last minute's count. */
  readonly starts: readonly number[];
  /** Its tasks not yet ended, and requests admitted whose task does not exist yet. */
  readonly working: number;
  /** What its tasks cost today (UTC). */
  readonly spentTodayUsd: number;
}

/** The window of `tasksPerMinute`: any 60 seconds, not the clock's minutes. */
export const WINDOW_MS = 60_000;
const DAY_MS = 86_400_000;

/** Whether a `limits.callers[].match` pattern names `scope`: exact, or a prefix ending in `*`. */
export function scopeMatches(pattern: string, scope: string): boolean {
  return pattern.endsWith("*") ? scope.startsWith(pattern.slice(0, -1)) : pattern === scope;
}

/**
 * The limits of the caller whose scope is `scope`: `limits.default`, overridden key by key by the
 * first entry of `limits.callers` that matches (an entry's `null` is "no limit").
 */
export function limitsFor(config: LimitsConfig, scope: string): CallerLimitValues {
  const entry = config.callers.find((c) => scopeMatches(c.match, scope));
  const pick = <K extends LimitName>(key: K): number | undefined => {
    const own = entry?.[key];
    if (own === null) return undefined;
    return own ?? config.default[key] ?? undefined;
  };
  return {
    tasksPerMinute: pick("tasksPerMinute"),
    concurrentTasks: pick("concurrentTasks"),
    dailyBudgetUsd: pick("dailyBudgetUsd"),
  };
}

/** Whether any limit is set at all (none: the server does not count). */
export function anyLimit(config: LimitsConfig): boolean {
  const set = (v: { [K in LimitName]?: number | null | undefined }) =>
    v.tasksPerMinute != null || v.concurrentTasks != null || v.dailyBudgetUsd != null;
  return set(config.default) || config.callers.some(set);
}

/** The UTC day of `ms`: `2025-01-31`. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The first millisecond of the UTC day after the one `ms` is in. */
export const nextUtcDay = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS + DAY_MS;

/** The starts still inside the window ending at `now`, oldest first. */
export function startsInWindow(starts: readonly number[], now: number): number[] {
  return starts.filter((t) => t > now - WINDOW_MS && t <= now).sort((a, b) => a - b);
}

/**
 * Whether a caller may start a new task now; the refusal says which limit and when it resets.
 * When several limits are reached, the one that keeps the caller waiting longest is named: the
 * daily budget, then tasks at once (resets when a task ends), then the minute's window.
 */
export function admission(
  limits: CallerLimitValues,
  usage: CallerUsageNow,
  now: number,
): Refusal | undefined {
  const over = budgetReached(limits, usage.spentTodayUsd, now);
  if (over !== undefined) return over;
  const atOnce = limits.concurrentTasks;
  if (atOnce !== undefined && usage.working >= atOnce) {
    return { limit: "concurrentTasks", max: atOnce, working: usage.working };
  }
  const perMinute = limits.tasksPerMinute;
  if (perMinute !== undefined) {
    const recent = startsInWindow(usage.starts, now);
    if (recent.length >= perMinute) {
      // The window has room again when all but `perMinute - 1` of these have left it.
      const freeing = recent[recent.length - perMinute] ?? now;
      return { limit: "tasksPerMinute", max: perMinute, resetsAt: freeing + WINDOW_MS };
    }
  }
  return undefined;
}

/**
 * Whether the caller's spend has reached its daily budget: the tasks still running stop after
 * their current turn. Undefined while under it.
 */
export function budgetReached(
  limits: CallerLimitValues,
  spentTodayUsd: number,
  now: number,
): BudgetReached | undefined {
  const budget = limits.dailyBudgetUsd;
  if (budget === undefined || spentTodayUsd < budget) return undefined;
  return {
    limit: "dailyBudgetUsd",
    max: budget,
    spentUsd: spentTodayUsd,
    resetsAt: nextUtcDay(now),
  };
}
