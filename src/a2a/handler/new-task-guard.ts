import type { Message } from "@a2a-js/sdk";
import { requestedBudget } from "../task/task-usage.js";
import { taskSettings, type TaskPolicies } from "../task/task-settings.js";
import { type Checked } from "../../common/refusal.js";

/** What a new task's message may choose, from the config (an unset policy checks nothing). */
export interface NewTaskPolicy extends TaskPolicies {
  /** `claude.maxBudgetUsd`: a message's `metadata.maxBudgetUsd` may lower it, never raise it. */
  readonly maxBudgetUsd?: number | undefined;
}

export type NewTaskCheck =
  /** `permissionMode`: the message asks for one (the control extension is then acted on). */
  Checked<{ readonly permissionMode: boolean }>;

const PASS: NewTaskCheck = { ok: true, permissionMode: false };

/**
 * A new task's `metadata.maxBudgetUsd` (a positive number, not above `claude.maxBudgetUsd`), and
 * its `model`, `effort`, `sandbox` and `permissionMode` as the policies allow them (a sandbox or
 * mode wider than the workspace's, a mode without the control extension: refused). Only the
 * message that creates a task chooses: one that names a task passes (its keys are ignored). Pure:
 * the guard refuses with the reason (InvalidParams) before any task exists.
 */
export function checkNewTask(
  message: Pick<Message, "taskId" | "metadata"> | undefined,
  policy: NewTaskPolicy,
  controlActive: boolean,
): NewTaskCheck {
  if (message === undefined || message.taskId) return PASS;
  const budget = requestedBudget(message.metadata, policy.maxBudgetUsd);
  if (!budget.ok) return budget;
  const { models, sandbox, permissionModes } = policy;
  if (!models && !sandbox && !permissionModes) return PASS;
  const settings = taskSettings(
    message.metadata,
    { models, sandbox, permissionModes },
    controlActive,
  );
  if (!settings.ok) return settings;
  return { ok: true, permissionMode: settings.settings.permissionMode !== undefined };
}
