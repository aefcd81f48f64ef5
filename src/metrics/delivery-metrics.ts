import { Counter, type Registry } from "prom-client";

const PREFIX = "claude_a2a_";

/** The metrics of deliveries (docs/delivery.md): each check run, and how each delivery ended. */
export class DeliveryMetrics {
  private readonly checks: Counter<"result">;
  private readonly deliveries: Counter<"outcome">;
  private readonly rounds: Counter<"outcome">;

  constructor(registry: Registry) {
    const registers = [registry];
    this.checks = new Counter({
      name: `${PREFIX}delivery_checks_total`,
      help: "Delivery checks run, by result (passed, failed, timed_out).",
      labelNames: ["result"],
      registers,
    });
    this.deliveries = new Counter({
      name: `${PREFIX}deliveries_total`,
      help:
        "Deliveries ended, by outcome: green (every check passed), red (still failing after " +
        "the last fix round), stopped (the task ended otherwise: canceled, failed).",
      labelNames: ["outcome"],
      registers,
    });
    this.rounds = new Counter({
      name: `${PREFIX}delivery_rounds_total`,
      help: "Rounds of checks the ended deliveries ran, by outcome (divide by deliveries_total).",
      labelNames: ["outcome"],
      registers,
    });
  }

  /** One check ran. */
  checked(result: string): void {
    this.checks.inc({ result });
  }

  /** A delivery ended after `rounds` rounds of checks. */
  ended(outcome: string, rounds: number): void {
    this.deliveries.inc({ outcome });
    if (rounds > 0) this.rounds.inc({ outcome }, rounds);
  }
}
