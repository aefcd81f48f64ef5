import type { Missed } from "./next-firing.js";

/**
 * What a schedule does at startup with the firings due while no server ran (docs/triggers.md
 * "Catch-up"). Pure.
 */

export type CatchUpPolicy = "skip" | "once";

export interface CatchUpPlan {
  /** The scheduled time to fire now, if any: always the latest missed. */
  readonly fire: Date | undefined;
  /** How many missed firings are not fired. */
  readonly skipped: number;
}

export function catchUpPlan(policy: CatchUpPolicy, missed: Missed): CatchUpPlan {
  if (missed.latest === undefined || missed.count === 0) return { fire: undefined, skipped: 0 };
  switch (policy) {
    case "skip":
      return { fire: undefined, skipped: missed.count };
    case "once":
      return { fire: missed.latest, skipped: missed.count - 1 };
  }
}

/** A running server's timer: the latest due firing fires, older ones it slept through do not. */
export const duePlan = (missed: Missed): CatchUpPlan => catchUpPlan("once", missed);
