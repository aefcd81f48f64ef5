import { describe, expect, it } from "vitest";
import { RunCostMeter } from "../../../src/limits/run-cost.js";

describe("RunCostMeter: a run's share of the runtime's running total", () => {
  it("each result of a session costs the difference from the previous one", () => {
    const meter = new RunCostMeter();
    expect(meter.costOf({ sessionId: "s1", totalCostUsd: 0.00033 })).toBeCloseTo(0.00033, 10);
    expect(meter.costOf({ sessionId: "s1", totalCostUsd: 0.00066 })).toBeCloseTo(0.00033, 10);
    // Another session has its own total.
    expect(meter.costOf({ sessionId: "s2", totalCostUsd: 0.001 })).toBeCloseTo(0.001, 10);
    // The same session resumed by a process that kept the total: still the difference.
    expect(meter.costOf({ sessionId: "s1", totalCostUsd: 0.00099 })).toBeCloseTo(0.00033, 10);
  });

  it("a total lower than the last one is a new process that started from zero", () => {
    const meter = new RunCostMeter();
    meter.costOf({ sessionId: "s1", totalCostUsd: 0.5 });
    expect(meter.costOf({ sessionId: "s1", totalCostUsd: 0.1 })).toBeCloseTo(0.1, 10);
  });

  it("no figure costs nothing; a result without a session counts its total", () => {
    const meter = new RunCostMeter();
    expect(meter.costOf({ sessionId: "s1" })).toBe(0);
    expect(meter.costOf({ sessionId: "s1", totalCostUsd: Number.NaN })).toBe(0);
    expect(meter.costOf({ totalCostUsd: 0.2 })).toBeCloseTo(0.2, 10);
  });

  it("remembers a bounded number of sessions, the least recently seen forgotten first", () => {
    const meter = new RunCostMeter(2);
    meter.costOf({ sessionId: "a", totalCostUsd: 1 });
    meter.costOf({ sessionId: "b", totalCostUsd: 1 });
    meter.costOf({ sessionId: "a", totalCostUsd: 2 }); // a is the most recent now
    meter.costOf({ sessionId: "c", totalCostUsd: 1 }); // b is forgotten
    expect(meter.costOf({ sessionId: "a", totalCostUsd: 3 })).toBe(1);
    expect(meter.costOf({ sessionId: "b", totalCostUsd: 3 })).toBe(3);
  });
});
