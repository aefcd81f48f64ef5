/**
 * Usage and budget through the task layer: the pure sums and budget decisions, then tasks driven
 * by scripted SDK sequences whose results carry known running totals.
 */
import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import { describe, expect, it } from "vitest";
import { EMPTY_USAGE, usageOf, type TaskUsage } from "../../../../src/contract/usage.js";
import { addRunUsage, budgetStop, type TaskBudget } from "../../../../src/a2a/task/task-usage.js";
import { requestedBudget } from "../../../../src/a2a/admission/task-budget.js";
import type { RunUsage } from "../../../../src/claude/index.js";
import {
  autonomousTurn,
  backgroundJobFinished,
  sdk,
  startsBackgroundJob,
} from "../../claude/support/sdk-messages.js";
import {
  contextTasks,
  describeEvent,
  idsOf,
  isState,
  agent,
  sentStamp,
  StreamReader,
  userMessage,
  firstSend,
} from "../support/agent.js";

const SONNET = "claude-sonnet-4-5";
const run = (costUsd: number, input: number, output: number, model = SONNET): RunUsage => {
  const figures = {
    inputTokens: input,
    outputTokens: output,
    cacheReadTokens: 1,
    cacheCreationTokens: 2,
    costUsd,
  };
  return { ...figures, models: { [model]: figures }, modelTurns: 2, durationMs: 100 };
};

describe("addRunUsage", () => {
  it("sums runs: figures, per model, model turns, wall time, runs", () => {
    const total = [run(0.00066, 20, 40), run(0.00033, 10, 20), run(0.0001, 1, 2, "haiku")].reduce(
      addRunUsage,
      EMPTY_USAGE,
    );
    expect(total).toEqual<TaskUsage>({
      costUsd: 0.00109,
      inputTokens: 31,
      outputTokens: 62,
      cacheReadTokens: 3,
      cacheCreationTokens: 6,
      models: {
        [SONNET]: {
          inputTokens: 30,
          outputTokens: 60,
          cacheReadTokens: 2,
          cacheCreationTokens: 4,
          costUsd: 0.00099,
        },
        haiku: {
          inputTokens: 1,
          outputTokens: 2,
          cacheReadTokens: 1,
          cacheCreationTokens: 2,
          costUsd: 0.0001,
        },
      },
      modelTurns: 6,
      durationMs: 300,
      runs: 3,
    });
    // What a client reads back is the same shape.
    expect(usageOf({ usage: JSON.parse(JSON.stringify(total)) as unknown })).toEqual(total);
  });
});

describe("requestedBudget: a message may lower claude.maxBudgetUsd, never raise it", () => {
  const cases: [string, Record<string, unknown> | undefined, number | undefined, unknown][] = [
    ["no metadata: the configured budget", undefined, 1, { usd: 1, source: "claude.maxBudgetUsd" }],
    ["nothing configured, nothing asked: none", {}, undefined, undefined],
    [
      "lower: the message's",
      { maxBudgetUsd: 0.5 },
      1,
      { usd: 0.5, source: "metadata.maxBudgetUsd" },
    ],
    ["equal: allowed", { maxBudgetUsd: 1 }, 1, { usd: 1, source: "metadata.maxBudgetUsd" }],
    [
      "nothing configured: any positive value",
      { maxBudgetUsd: 7 },
      undefined,
      { usd: 7, source: "metadata.maxBudgetUsd" },
    ],
  ];
  for (const [name, metadata, configured, budget] of cases) {
    it(name, () => expect(requestedBudget(metadata, configured)).toEqual({ ok: true, budget }));
  }
  const refused: [string, unknown, number | undefined, RegExp][] = [
    ["higher", 2, 1, /^metadata\.maxBudgetUsd 2 is above this server's claude\.maxBudgetUsd \(1\)/],
    ["zero", 0, 1, /must be a number of US dollars greater than 0, got 0\.$/],
    ["negative", -1, undefined, /greater than 0, got -1\.$/],
    ["a string", "0.5", 1, /got "0\.5"\.$/],
    ["null", null, 1, /got null\.$/],
  ];
  for (const [name, asked, configured, reason] of refused) {
    it(`refuses ${name}`, () => {
      const r = requestedBudget({ maxBudgetUsd: asked }, configured);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(reason);
    });
  }
});

describe("budgetStop: decided when a run ends", () => {
  const budget: TaskBudget = { usd: 0.0005, source: "claude.maxBudgetUsd" };
  it("goes on at or under the budget, and without one", () => {
    expect(budgetStop({ costUsd: 0.0005 }, budget)).toBeUndefined();
    expect(budgetStop({ costUsd: 99 }, undefined)).toBeUndefined();
  });
  it("stops over it, saying the budget, where it comes from, and what was spent", () => {
    expect(budgetStop({ costUsd: 0.00066 }, budget)).toBe(
      "Stopped: this task spent $0.00066, over its budget of $0.0005 (claude.maxBudgetUsd).",
    );
  });
});

const usageOfEvent = (e: StreamResponse | undefined) =>
  e?.payload?.$case === "statusUpdate" ? usageOf(e.payload.value.metadata) : undefined;
const statusText = (e: StreamResponse | undefined) =>
  e?.payload?.$case === "statusUpdate"
    ? e.payload.value.status?.message?.parts
        .map((p) => (p.content?.$case === "text" ? p.content.value : ""))
        .join("")
    : undefined;
const totals = (costUsd: number, input: number, output: number) => ({ costUsd, input, output });

const wake = (text: string, cost: ReturnType<typeof totals>) => [
  ...autonomousTurn("m3", text).slice(0, -1),
  sdk.result({ text, origin: "task-notification", totals: cost }),
];

describe("a task's usage (scripted runtime)", () => {
  it("sums its runs, the wake its background work caused included, on its final status and stored task", async () => {
    const [h, a, stamp] = await firstSend("run it in the background");
    await h.fake.query.feed(...startsBackgroundJob(stamp, { totals: totals(0.00066, 20, 40) }));
    await a.until((e) => describeEvent(e) === "status:WORKING:background_wait");
    await h.fake.query.feed(
      ...backgroundJobFinished(),
      ...wake("It finished fine.", totals(0.00099, 30, 60)),
    );
    const done = await a.until(isState(TaskState.TASK_STATE_COMPLETED));
    const usage = usageOfEvent(done);
    expect(usage).toMatchObject({ inputTokens: 30, outputTokens: 60, runs: 2, modelTurns: 2 });
    expect(usage?.costUsd).toBeCloseTo(0.00099, 10);
    expect(Object.keys(usage?.models ?? {})).toEqual([SONNET]);
    const stored = await h.stored(idsOf(a).taskId);
    expect(usageOf(stored?.metadata)).toEqual(usage);
  });

  it("a failed or canceled task carries its usage too", async () => {
    const [h, a, stamp] = await firstSend("fail");
    await h.fake.query.feed(
      sdk.init(),
      sdk.result({
        stamp,
        subtype: "error_during_execution",
        isError: true,
        errors: ["boom"],
        totals: totals(0.001, 5, 5),
      }),
    );
    const failed = await a.until(isState(TaskState.TASK_STATE_FAILED));
    expect(usageOfEvent(failed)).toMatchObject({ costUsd: 0.001, runs: 1 });
  });
});

describe("a task's budget (scripted runtime)", () => {
  it("a run that crosses claude.maxBudgetUsd ends the task FAILED with the text, after its turn", async () => {
    const [h, a, stamp] = await firstSend("run it in the background", {
      config: { claude: { maxBudgetUsd: 0.0005 } },
    });
    await h.fake.query.feed(...startsBackgroundJob(stamp, { totals: totals(0.00066, 20, 40) }));
    const failed = await a.until(isState(TaskState.TASK_STATE_FAILED));
    expect(statusText(failed)).toBe(
      "Stopped: this task spent $0.00066, over its budget of $0.0005 (claude.maxBudgetUsd).",
    );
    expect(usageOfEvent(failed)?.costUsd).toBeCloseTo(0.00066, 10);
    // It waited for no wake: its background work was stopped with it.
    expect(a.describe()).not.toContain("status:WORKING:background_wait");
    expect(h.fake.query.stoppedTasks).toEqual(["t1"]);
  });

  it("a message's lower metadata.maxBudgetUsd is its task's; a higher one is refused before any task", async () => {
    const h = await agent({ config: { claude: { maxBudgetUsd: 0.01 } } });
    const handler = h.agent.requestHandler;
    const withBudget = (maxBudgetUsd: unknown, contextId = "") => ({
      tenant: "",
      message: { ...userMessage("hi", { contextId }), metadata: { maxBudgetUsd } },
      configuration: undefined,
      metadata: undefined,
    });
    const higher = new StreamReader(
      handler.sendMessageStream(withBudget(0.02, "ctx-b"), h.context),
    );
    const err = await higher.done;
    expect(err).toBeInstanceOf(RequestMalformedError);
    expect((err as Error).message).toMatch(/above this server's claude\.maxBudgetUsd \(0\.01\)/);
    await expect(handler.sendMessage(withBudget("lots", "ctx-b"), h.context)).rejects.toThrow(
      /must be a number of US dollars/,
    );
    expect(await contextTasks(h, "ctx-b")).toEqual([]);
    expect(h.fake.queries).toHaveLength(0);

    const lower = new StreamReader(handler.sendMessageStream(withBudget(0.0001), h.context));
    const stamp = await sentStamp(h, 0);
    await h.fake.query.feed(
      sdk.init(),
      sdk.result({ text: "hello", stamp, totals: totals(0.00033, 10, 20) }),
    );
    const failed = await lower.until(isState(TaskState.TASK_STATE_FAILED));
    expect(statusText(failed)).toBe(
      "Stopped: this task spent $0.00033, over its budget of $0.0001 (metadata.maxBudgetUsd).",
    );
  });
});
