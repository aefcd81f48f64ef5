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
        "Deliveries ended, by outcome: green (delivered where its target says), red (still " +
        "failing after the last fix round), undelivered (green, but its push, pull request or " +
        "merge failed), declined (its merge was refused), stopped (the task ended otherwise).",
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
