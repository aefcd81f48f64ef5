import { describe, expect, it } from "vitest";
import { costStateOf } from "../../../src/claude/usage-baseline.js";
import {
  meterRun,
  resultUsageReport,
  UsageMeter,
  ZERO_TOTALS,
  type ModelUsage,
  type ResultUsageReport,
  type UsageTotals,
} from "../../../src/claude/usage.js";
import { collect } from "./support/helpers.js";
import { sdk } from "./support/sdk-messages.js";
import { scriptedSession } from "./support/session.js";

const SONNET = "claude-sonnet-4-5";
const fig = (input: number, output: number, costUsd: number, cacheRead = 0): ModelUsage => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadTokens: cacheRead,
  cacheCreationTokens: 0,
  costUsd,
});
const totals = (models: Record<string, ModelUsage>): UsageTotals => ({
  costUsd: Object.values(models).reduce((sum, m) => sum + m.costUsd, 0),
  models,
});
const report = (t: UsageTotals | undefined, extra: Partial<ResultUsageReport> = {}) => ({
  totals: t,
  turnTokens: undefined,
  modelTurns: 1,
  durationMs: 50,
  ...extra,
});

describe("meterRun: a run's share of the runtime's running totals", () => {
  const cases: {
    name: string;
    previous: UsageTotals;
    report: ResultUsageReport;
    cost: number;
    input: number;
    output: number;
    models: string[];
  }[] = [
    {
      name: "the first result of a process is all its own",
      previous: ZERO_TOTALS,
      report: report(totals({ [SONNET]: fig(10, 20, 0.00033) })),
      cost: 0.00033,
      input: 10,
      output: 20,
      models: [SONNET],
    },
    {
      name: "a later result: the difference from the previous totals",
      previous: totals({ [SONNET]: fig(10, 20, 0.00033) }),
      report: report(totals({ [SONNET]: fig(30, 60, 0.00099) })),
      cost: 0.00066,
      input: 20,
      output: 40,
      models: [SONNET],
    },
    {
      name: "a model the turn did not call is not listed",
      previous: totals({ [SONNET]: fig(10, 20, 0.00033), haiku: fig(5, 5, 0.0001) }),
      report: report(totals({ [SONNET]: fig(20, 40, 0.00066), haiku: fig(5, 5, 0.0001) })),
      cost: 0.00033,
      input: 10,
      output: 20,
      models: [SONNET],
    },
    {
      name: "totals that went down: the runtime counts afresh (/clear), all of it is this run's",
      previous: totals({ [SONNET]: fig(100, 200, 0.0033) }),
      report: report(totals({ [SONNET]: fig(10, 20, 0.00033) })),
      cost: 0.00033,
      input: 10,
      output: 20,
      models: [SONNET],
    },
    {
      name: "zeroed totals (a crash result) spend nothing",
      previous: totals({ [SONNET]: fig(10, 20, 0.00033) }),
      report: report(totals({})),
      cost: 0,
      input: 0,
      output: 0,
      models: [],
    },
    {
      name: "no totals at all: the turn's own tokens, no cost",
      previous: ZERO_TOTALS,
      report: report(undefined, {
        turnTokens: { inputTokens: 7, outputTokens: 8, cacheReadTokens: 0, cacheCreationTokens: 0 },
      }),
      cost: 0,
      input: 7,
      output: 8,
      models: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { usage } = meterRun(c.previous, c.report);
      expect(usage.costUsd).toBeCloseTo(c.cost, 10);
      expect([usage.inputTokens, usage.outputTokens]).toEqual([c.input, c.output]);
      expect(Object.keys(usage.models)).toEqual(c.models);
      expect([usage.modelTurns, usage.durationMs]).toEqual([1, 50]);
    });
  }

  it("sums the models' tokens, cache reads and writes included", () => {
    const { usage } = meterRun(
      ZERO_TOTALS,
      report(totals({ [SONNET]: fig(10, 20, 0.001, 300), haiku: fig(1, 2, 0.0001, 4) })),
    );
    expect(usage).toMatchObject({ inputTokens: 11, outputTokens: 22, cacheReadTokens: 304 });
    expect(usage.costUsd).toBeCloseTo(0.0011, 10);
  });

  it("a zeroed result leaves the totals the next result is measured from", () => {
    const meter = new UsageMeter();
    meter.take(report(totals({ [SONNET]: fig(10, 20, 0.00033) })));
    meter.take(report(totals({})));
    const next = meter.take(report(totals({ [SONNET]: fig(20, 40, 0.00066) })));
    expect(next.costUsd).toBeCloseTo(0.00033, 10);
    expect(next.inputTokens).toBe(10);
  });

  it("reads a raw result's figures (modelUsage, usage, num_turns, duration_ms)", () => {
    const r = resultUsageReport({
      total_cost_usd: 0.00033,
      num_turns: 2,
      duration_ms: 70,
      usage: { input_tokens: 10, output_tokens: 20 },
      modelUsage: {
        [SONNET]: {
          inputTokens: 10,
          outputTokens: 20,
          cacheReadInputTokens: 3,
          cacheCreationInputTokens: 4,
          costUSD: 0.00033,
        },
      },
    });
    expect(r).toEqual({
      totals: {
        costUsd: 0.00033,
        models: {
          [SONNET]: { ...fig(10, 20, 0.00033, 3), cacheCreationTokens: 4 },
        },
      },
      turnTokens: { inputTokens: 10, outputTokens: 20, cacheReadTokens: 0, cacheCreationTokens: 0 },
      modelTurns: 2,
      durationMs: 70,
    });
  });
});

describe("costStateOf: the totals a resumed runtime starts from", () => {
  const state = (sessionId: string, cost: number) => ({
    type: "cost-state",
    sessionId,
    totalCostUSD: cost,
    modelUsage: { [SONNET]: { inputTokens: 1, outputTokens: 2, costUSD: cost } },
  });
  it("takes the last cost-state of the session", () => {
    const entries = [state("s1", 0.1), { type: "user" }, state("s1", 0.2), state("other", 9)];
    expect(costStateOf(entries, "s1")?.costUsd).toBe(0.2);
    expect(costStateOf(entries, "s1")?.models[SONNET]?.outputTokens).toBe(2);
  });
  it("is undefined when the transcript has none (a SIGKILLed process saved nothing)", () => {
    expect(costStateOf([{ type: "user" }], "s1")).toBeUndefined();
  });
});

describe("ClaudeSession: per-run usage on results", () => {
  it("gives each run its share of the process's totals", async () => {
    const { fake, send } = scriptedSession();
    const first = await send("one", 0);
    await fake.query.feed(
      sdk.result({ stamp: first.stamp, totals: { costUsd: 0.00033, input: 10, output: 20 } }),
    );
    const a = await collect(first.stream);
    const second = await send("two", 1);
    await fake.query.feed(
      sdk.result({ stamp: second.stamp, totals: { costUsd: 0.00099, input: 30, output: 60 } }),
    );
    const b = await collect(second.stream);
    const usageOf = (events: typeof a) => events.find((e) => e.kind === "result");
    expect(usageOf(a)).toMatchObject({ usage: { inputTokens: 10, outputTokens: 20 } });
    expect(usageOf(b)).toMatchObject({ usage: { inputTokens: 20, outputTokens: 40 } });
  });

  it("a resumed session holds its first prompt until the saved totals are read, then meters from them", async () => {
    let release: (t: UsageTotals) => void = () => undefined;
    const saved = new Promise<UsageTotals>((resolve) => (release = resolve));
    const { fake, session } = scriptedSession({
      resume: "44444444-4444-4444-8444-444444444444",
      usageBaselineLoader: () => saved,
    });
    const stream = session.stream("after the restart");
    // The process is up, but nothing is sent while the totals are unknown.
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.query.sent).toHaveLength(0);
    release(totals({ [SONNET]: fig(40, 80, 0.00132) }));
    const sent = await fake.query.sentMessage(0);
    await fake.query.feed(
      sdk.result({
        stamp: String(sent.uuid),
        totals: { costUsd: 0.00165, input: 50, output: 100 },
      }),
    );
    const result = (await collect(stream)).find((e) => e.kind === "result");
    expect(result).toMatchObject({ usage: { inputTokens: 10, outputTokens: 20 } });
    if (result?.kind === "result") expect(result.usage.costUsd).toBeCloseTo(0.00033, 10);
  });
});
