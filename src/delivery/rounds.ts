import type { CheckRun } from "../contract/delivery.js";

/** What follows a round of checks. */
export type RoundFate =
  /** Every check passed: the task completes, with its proof of work. */
  | { readonly kind: "green" }
  /** Some failed and a fix round is left: they go back to Claude as a new turn of the task. */
  | { readonly kind: "fix"; readonly failed: readonly CheckRun[] }
  /** Some failed and no fix round is left: the task fails with the last failing one. */
  | { readonly kind: "red"; readonly last: CheckRun };

/**
 * After round `round` (1: the checks after the task's own turn) with `runs` its checks' runs,
 * and `maxRounds` fix rounds allowed: green, a fix round, or red for good. Pure.
 */
export function roundFate(runs: readonly CheckRun[], round: number, maxRounds: number): RoundFate {
  const failed = runs.filter((r) => r.result !== "passed");
  const last = failed.at(-1);
  if (last === undefined) return { kind: "green" };
  return round <= maxRounds ? { kind: "fix", failed } : { kind: "red", last };
}
