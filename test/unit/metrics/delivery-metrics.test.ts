import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { DeliveryMetrics } from "../../../src/metrics/delivery-metrics.js";

describe("delivery metrics", () => {
  it("counts checks by result, deliveries by outcome and their rounds", async () => {
    const registry = new Registry();
    const m = new DeliveryMetrics(registry);
    m.checked("failed");
    m.checked("passed");
    m.checked("passed");
    m.ended("green", 2);
    m.ended("red", 4);
    m.ended("stopped", 0);
    const text = await registry.metrics();
    expect(text).toContain('claude_a2a_delivery_checks_total{result="passed"} 2');
    expect(text).toContain('claude_a2a_delivery_checks_total{result="failed"} 1');
    expect(text).toContain('claude_a2a_deliveries_total{outcome="green"} 1');
    expect(text).toContain('claude_a2a_deliveries_total{outcome="stopped"} 1');
    expect(text).toContain('claude_a2a_delivery_rounds_total{outcome="red"} 4');
    expect(text).toContain('claude_a2a_delivery_rounds_total{outcome="green"} 2');
  });
});
