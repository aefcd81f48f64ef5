import type { CheckRun } from "../contract/delivery.js";
import type { DeliveryCheckConfig } from "../config/delivery-schema.js";

/** How a delivery ended, for the metrics. */
export type DeliveryOutcome = "green" | "red" | "stopped";

/** What the server gives a task to run its delivery's checks with (`src/delivery/`). */
export interface DeliveryRunner {
  /** Runs one check in `cwd` to its end (killed on `signal`); never throws. */
  run(
    check: DeliveryCheckConfig,
    round: number,
    cwd: string,
    signal: AbortSignal,
  ): Promise<CheckRun>;
  /** A check ran (the metrics count it by result). */
  checked?(run: CheckRun): void;
  /** A delivery ended (the metrics count it by outcome, with its rounds). */
  ended?(outcome: DeliveryOutcome, rounds: number): void;
}
