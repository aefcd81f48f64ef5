import { describe, expect, it } from "vitest";
import { EMPTY_USAGE, type TaskUsage } from "../../../../src/contract/usage.js";
import { addDelegatedUsage, addRunUsage, budgetStop } from "../../../../src/a2a/task/task-usage.js";

const peer = (costUsd: number) => ({
  costUsd,
  inputTokens: 10,
  outputTokens: 20,
  cacheReadTokens: 1,
  cacheCreationTokens: 2,
});
const run = { ...peer(0.1), models: {}, modelTurns: 1, durationMs: 5 };

describe("a task's delegated usage (docs/peers.md)", () => {
  it("sums each call's reported usage under `delegated`, apart from the task's own runs", () => {
    const once = addDelegatedUsage(EMPTY_USAGE, peer(0.25));
    const twice = addDelegatedUsage(once, peer(0.5));
    expect(twice.delegated).toEqual({
      costUsd: 0.75,
      inputTokens: 20,
      outputTokens: 40,
      cacheReadTokens: 2,
      cacheCreationTokens: 4,
      calls: 2,
    });
    expect(twice.costUsd).toBe(0);
    expect(twice.runs).toBe(0);
  });

  it("keeps `delegated` when a run's usage is added after the call", () => {
    const withPeer = addDelegatedUsage(EMPTY_USAGE, peer(0.25));
    const after = addRunUsage(withPeer, run);
    expect(after.delegated?.costUsd).toBe(0.25);
    expect(after.costUsd).toBe(0.1);
  });

  it.each([
    // own, delegated, budget, stops
    [0.1, 0, 0.5, false],
    [0.1, 0.3, 0.5, false],
    [0.1, 0.5, 0.5, true],
    [0.6, 0, 0.5, true],
  ])("own $%d + delegated $%d against a budget of $%d", (own, delegated, usd, stops) => {
    const usage: TaskUsage =
      delegated === 0
        ? { ...EMPTY_USAGE, costUsd: own }
        : { ...addDelegatedUsage(EMPTY_USAGE, peer(delegated)), costUsd: own };
    const stop = budgetStop(usage, { usd, source: "metadata.maxBudgetUsd" });
    expect(stop !== undefined).toBe(stops);
  });
});
