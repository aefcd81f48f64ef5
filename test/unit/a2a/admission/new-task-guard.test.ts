import { describe, expect, it } from "vitest";
import { checkNewTask, type NewTaskPolicy } from "../../../../src/a2a/admission/new-task-guard.js";
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

const configured = { usd: 1, source: "claude.maxBudgetUsd" };
/** Passed; a message creating a task also hands on what it chose (the executor runs with it). */
const ok = (permissionMode = false, chosen?: unknown) => ({
  ok: true,
  permissionMode,
  ...(chosen !== undefined && { chosen }),
});
const refused = (reason: string) => ({ ok: false, reason });

describe("checkNewTask: what a new task's message may choose", () => {
  // [name, message, control extension active, expected, policy (the full one unless given)]
  it.each<[string, ReturnType<typeof message> | undefined, boolean, unknown, NewTaskPolicy?]>([
    ["no message", undefined, true, ok()],
    ["nothing chosen", message({}), true, ok(false, { budget: configured, settings: {} })],
    [
      "a lower budget",
      message({ maxBudgetUsd: 0.5 }),
      true,
      ok(false, { budget: { usd: 0.5, source: "metadata.maxBudgetUsd" }, settings: {} }),
    ],
    ["a higher budget", message({ maxBudgetUsd: 2 }), true, refused(TEXT.budgetAboveLimit(2, 1))],
    [
      "a budget that is no number",
      message({ maxBudgetUsd: "cheap" }),
      true,
      refused(TEXT.budgetNotANumber("cheap")),
    ],
    [
      "an answer's keys are ignored",
      message({ maxBudgetUsd: 2, permissionMode: "bypassPermissions" }, "t1"),
      false,
      ok(),
    ],
    [
      "a model not allowed",
      message({ model: "claude-opus-4-5" }),
      true,
      refused(TEXT.modelNotAllowed("claude-opus-4-5", ["claude-sonnet-4-5"])),
    ],
    [
      "plan mode, with the extension",
      message({ permissionMode: "plan" }),
      true,
      ok(true, { budget: configured, settings: { permissionMode: "plan" } }),
    ],
    [
      "plan mode, without it",
      message({ permissionMode: "plan" }),
      false,
      refused(PLAN_TEXT.needsExtension(CONTROL_EXTENSION_URI)),
    ],
    [
      "no policies: only the budget is checked",
      message({ model: "anything", permissionMode: "plan" }),
      false,
      ok(false, { budget: undefined, settings: {} }),
      {},
    ],
  ])("%s", (_name, m, control, expected, p = policy) => {
    expect(checkNewTask(m, p, control)).toEqual(expected);
  });
});
