import type { Message } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { admitTask, type Admission } from "../../../../src/a2a/admission/task-admission.js";
import { textPart } from "../../../../src/contract/messages.js";
import { TEXT } from "../../../../src/contract/texts.js";

const message = (
  parts: Message["parts"],
  metadata?: Record<string, unknown>,
): Pick<Message, "parts" | "metadata"> => ({ parts, metadata });
const models = {
  defaultModel: "m-default",
  allowedModels: ["m-other"],
  defaultEffort: undefined,
  allowedEfforts: ["high"],
};
const text = [textPart("hello")];
const reasonOf = (a: Admission): string | undefined => (a.ok ? undefined : a.reason);

const T1 = { owner: "token:ci", taskId: "t1" };

describe("admitTask: what a new task's message runs with, or why it fails first", () => {
  it("a text message runs with the configured budget and no settings of its own", () => {
    const a = admitTask(message(text), T1, { maxBudgetUsd: 2, models });
    expect(a.ok && { blocks: a.plan.blocks, budget: a.budget, settings: a.settings }).toEqual({
      blocks: [{ type: "text", text: "hello" }],
      budget: { usd: 2, source: "claude.maxBudgetUsd" },
      settings: {},
    });
  });

  it("what the guard read from the message is taken as it is: the message is not read again", () => {
    const chosen = {
      budget: { usd: 0.25, source: "metadata.maxBudgetUsd" as const },
      settings: { model: "m-other" },
    };
    // Its metadata asks otherwise: only `chosen` counts (the guard read the same message).
    const asked = message(text, { maxBudgetUsd: 0.5, model: "m-default" });
    const a = admitTask(asked, T1, { maxBudgetUsd: 2, models }, chosen);
    expect(a.ok && { budget: a.budget, settings: a.settings }).toEqual(chosen);
  });

  it("its own budget under the configured one is what it runs with", () => {
    const a = admitTask(message(text, { maxBudgetUsd: 0.5 }), T1, { maxBudgetUsd: 2 });
    expect(a.ok && a.budget).toEqual({ usd: 0.5, source: "metadata.maxBudgetUsd" });
  });

  it("a model and effort it may choose are its settings", () => {
    const a = admitTask(message(text, { model: "m-other", effort: "high" }), T1, {
      maxBudgetUsd: undefined,
      models,
    });
    expect(a.ok && a.settings).toEqual({ model: "m-other", effort: "high" });
  });

  const refused: [string, Pick<Message, "parts" | "metadata">, string][] = [
    ["no content", message([]), "The message has no content to give to Claude."],
    [
      "a budget that is not a number",
      message(text, { maxBudgetUsd: "1" }),
      TEXT.budgetNotANumber("1"),
    ],
    [
      "a budget above the configured one",
      message(text, { maxBudgetUsd: 5 }),
      TEXT.budgetAboveLimit(5, 2),
    ],
    [
      "a model it may not name",
      message(text, { model: "m-else" }),
      TEXT.modelNotAllowed("m-else", ["m-default", "m-other"]),
    ],
  ];
  for (const [name, m, reason] of refused) {
    it(`refuses ${name}, with the text the client reads`, () => {
      expect(reasonOf(admitTask(m, T1, { maxBudgetUsd: 2, models }))).toBe(reason);
    });
  }

  it("without a model policy, a message's model is not read", () => {
    const a = admitTask(message(text, { model: "anything" }), T1, { maxBudgetUsd: undefined });
    expect(a.ok && a.settings).toEqual({});
  });
});
