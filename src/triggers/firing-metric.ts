import { Counter, type Registry } from "prom-client";

/**
 * `claude_a2a_trigger_firings_total{trigger, outcome}`: one counter per agent's registry, shared
 * by its webhook receiver and its schedules (docs/observability.md).
 */
const NAME = "claude_a2a_trigger_firings_total";

export type FiringCounter = Counter<"trigger" | "outcome">;

export function firingCounter(registry: Registry): FiringCounter {
  const known = registry.getSingleMetric(NAME);
  if (known !== undefined) return known as FiringCounter;
  return new Counter({
    name: NAME,
    help:
      "Trigger firings by trigger and outcome: webhook deliveries (started, duplicate, " +
      "filtered, budget…) and schedule firings (started, skipped, duplicate…).",
    labelNames: ["trigger", "outcome"],
    registers: [registry],
  });
}
