import type { ResultEvent } from "../../claude/index.js";
import type { CallerLimits } from "../../limits/caller-limits.js";
import { ANONYMOUS_OWNER } from "../../identity/caller.js";
import { budgetStopText } from "../../contract/limits.js";

/**
 * What the executor tells per-caller limits (`CallerLimits`) and asks them: a task of a caller
 * exists or has ended, a run ended (with what it cost), whether the caller is past its budget.
 */
export interface CallerAccounting {
  /** A task of `owner` exists: the one the request `messageId` was admitted for, or a wake's. */
  began(owner: string, taskId: string, messageId?: string): void;
  ended(taskId: string): void;
  /** A run in one of `owner`'s conversations ended: its result carries what it cost. */
  runEnded(owner: string, result: ResultEvent): void;
  /** What a peer reported a delegated call of one of `owner`'s tasks cost (docs/peers.md). */
  chargeDelegated(owner: string, usd: number): void;
  /** If `owner` has reached its daily budget: what a task of it says when it stops. */
  budgetStop(owner: string, background: boolean): string | undefined;
}

export function callerAccounting(limits: CallerLimits): CallerAccounting {
  return {
    began: (owner, taskId, messageId) => limits.began(owner, taskId, messageId),
    ended: (taskId) => limits.ended(taskId),
    // The run's own share of the runtime's running totals (src/claude/usage.ts).
    runEnded: (owner, result) => limits.charge(owner, result.usage.costUsd),
    chargeDelegated: (owner, usd) => limits.charge(owner, usd),
    budgetStop: (owner, background) => {
      const reached = limits.budgetReached(owner);
      const caller = { scope: owner, anonymous: owner === ANONYMOUS_OWNER };
      return reached === undefined ? undefined : budgetStopText(caller, reached, background);
    },
  };
}
