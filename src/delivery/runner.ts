import type { CheckRun, DeliveryTarget } from "../contract/delivery.js";
import type { DeliveryCheckConfig } from "../config/delivery-schema.js";
import type { Reviewer } from "./review/reviewer.js";
import type { TargetStep } from "./target-step.js";

/**
 * How a delivery ended, for the metrics: green (delivered where its target says), red (checks
 * still failing), undelivered (green, but its target step failed: the work stays on the branch),
 * declined (a person said no to its merge), stopped (the task ended otherwise).
 */
export type DeliveryOutcome = "green" | "red" | "undelivered" | "declined" | "stopped";

/** What the server gives a task to run its delivery's checks with (`src/delivery/`). */
export interface DeliveryRunner {
  /** Runs one check in `cwd` to its end (killed on `signal`); never throws. */
  run(
    check: DeliveryCheckConfig,
    round: number,
    cwd: string,
    signal: AbortSignal,
  ): Promise<CheckRun>;
  /**
   * The step after the commit for a target other than `branch` (push, pull request, merge);
   * undefined: this server cannot deliver there (the task fails, saying so).
   */
  targetStep?(target: Exclude<DeliveryTarget, "branch">): TargetStep | undefined;
  /** Reviews a green delivery that asks for one (docs/delivery.md "Review"); unset: none here. */
  readonly reviewer?: Reviewer;
  /** A check ran (the metrics count it by result). */
  checked?(run: CheckRun): void;
  /** A delivery ended (the metrics count it by outcome, with its rounds). */
  ended?(outcome: DeliveryOutcome, rounds: number): void;
}
