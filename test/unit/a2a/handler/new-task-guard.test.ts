import { describe, expect, it } from "vitest";
import { checkNewTask, type NewTaskPolicy } from "../../../../src/a2a/handler/new-task-guard.js";
import { TEXT } from "../../../../src/contract/texts.js";
import { PLAN_TEXT } from "../../../../src/contract/plan.js";
import { CONTROL_EXTENSION_URI } from "../../../../src/contract/control.js";

const models = {
  defaultModel: "claude-sonnet-4-5",
  allowedModels: [],
  defaultEffort: undefined,
  allowedEfforts: [],
};
const policy: NewTaskPolicy = {
  maxBudgetUsd: 1,
  models,
  permissionModes: { workspace: "acceptEdits", allowed: ["plan"] },
};
const message = (metadata: Record<string, unknown>, taskId = "") => ({ taskId, metadata });

describe("checkNewTask: what a new task's message may choose", () => {
  it.each<[string, ReturnType<typeof message> | undefined, NewTaskPolicy, boolean, unknown]>([
    ["no message", undefined, policy, true, { ok: true, permissionMode: false }],
    ["nothing chosen", message({}), policy, true, { ok: true, permissionMode: false }],
    [
      "a lower budget",
      message({ maxBudgetUsd: 0.5 }),
      policy,
      true,
      { ok: true, permissionMode: false },
    ],
    [
      "a higher budget",
      message({ maxBudgetUsd: 2 }),
      policy,
      true,
      { ok: false, reason: TEXT.budgetAboveLimit(2, 1) },
    ],
    [
      "a budget that is no number",
      message({ maxBudgetUsd: "cheap" }),
      policy,
      true,
      { ok: false, reason: TEXT.budgetNotANumber("cheap") },
    ],
    [
      "an answer's keys are ignored",
      message({ maxBudgetUsd: 2, permissionMode: "bypassPermissions" }, "t1"),
      policy,
      false,
      { ok: true, permissionMode: false },
    ],
    [
      "a model not allowed",
      message({ model: "claude-opus-4-5" }),
      policy,
      true,
      { ok: false, reason: TEXT.modelNotAllowed("claude-opus-4-5", ["claude-sonnet-4-5"]) },
    ],
    [
      "plan mode, with the extension",
      message({ permissionMode: "plan" }),
      policy,
      true,
      { ok: true, permissionMode: true },
    ],
    [
      "plan mode, without it",
      message({ permissionMode: "plan" }),
      policy,
      false,
      { ok: false, reason: PLAN_TEXT.needsExtension(CONTROL_EXTENSION_URI) },
    ],
    [
      "no policies: only the budget is checked",
      message({ model: "anything", permissionMode: "plan" }),
      {},
      false,
      { ok: true, permissionMode: false },
    ],
  ])("%s", (_name, m, p, control, expected) => {
    expect(checkNewTask(m, p, control)).toEqual(expected);
  });
});
