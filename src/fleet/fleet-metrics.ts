import { Counter, Histogram, type Registry } from "prom-client";

const PREFIX = "claude_a2a_fleet_";
/** Seconds: a relayed event takes milliseconds; a poll after a lost notification, a second. */
const LAG_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** The fleet's counters, in the server's registry (`GET /metrics`). */
export class FleetMetrics {
  readonly leasesRenewed: Counter;
  readonly leasesExpired: Counter<"whose">;
  readonly tasksRecovered: Counter<"reason">;
  readonly eventsRelayed: Counter;
  readonly relayLag: Histogram;
  readonly commandsForwarded: Counter<"kind" | "outcome">;

  constructor(registry: Registry) {
    const registers = [registry];
    this.leasesRenewed = new Counter({
      name: `${PREFIX}leases_renewed_total`,
      help: "Renewals of this instance's lease.",
      registers,
    });
    this.leasesExpired = new Counter({
      name: `${PREFIX}leases_expired_total`,
      help:
        "Expired leases seen: whose=own (this instance renewed too late), whose=other (another " +
        "instance's lease expired and its tasks were failed here).",
      labelNames: ["whose"],
      registers,
    });
    this.tasksRecovered = new Counter({
      name: `${PREFIX}tasks_failed_total`,
      help: "Unfinished tasks failed by recovery: reason=restart (this instance's) or owner_lost.",
      labelNames: ["reason"],
      registers,
    });
    this.eventsRelayed = new Counter({
      name: `${PREFIX}events_relayed_total`,
      help: "Events of a task another instance runs, delivered to a subscriber here.",
      registers,
    });
    this.relayLag = new Histogram({
      name: `${PREFIX}event_relay_lag_seconds`,
      help: "From the owner storing an event to a subscriber here reading it (database clock).",
      buckets: LAG_BUCKETS,
      registers,
    });
    this.commandsForwarded = new Counter({
      name: `${PREFIX}commands_forwarded_total`,
      help:
        "Requests forwarded to a task's owner instance: kind cancel or send; outcome " +
        "answered, error (the owner refused), gone (its lease expired) or timeout.",
      labelNames: ["kind", "outcome"],
      registers,
    });
  }
}
