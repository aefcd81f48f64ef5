import type { Message } from "@a2a-js/sdk";
import type { TurnSettings } from "../../claude/index.js";
import type { Checked } from "../../common/refusal.js";
import { CONTROL_EXTENSION_URI } from "../../contract/control.js";
import {
  requestedDelivery,
  type DeliveryPlan,
  type DeliveryPolicy,
} from "../../delivery/decision.js";
import type { TaskBudget } from "../task/task-usage.js";
import { requestedBudget } from "./task-budget.js";
import { taskSettings, type TaskPolicies } from "./task-settings.js";

/** What a new task's message may choose, from the config (an unset policy checks nothing). */
export interface NewTaskPolicy extends TaskPolicies {
  /** `claude.maxBudgetUsd`: a message's `metadata.maxBudgetUsd` may lower it, never raise it. */
  readonly maxBudgetUsd?: number | undefined;
  /** What `metadata.deliver` may ask (`claude.delivery`); unset: the key is not read. */
  readonly delivery?: DeliveryPolicy | undefined;
}

/** What a new task's message chose, as read by the guard: the executor runs the task with it. */
export interface NewTaskChoice {
  readonly budget: TaskBudget | undefined;
  readonly settings: TurnSettings;
  /** Its delivery (`metadata.deliver`, docs/delivery.md); unset: none. */
  readonly deliver?: DeliveryPlan;
}

export type NewTaskCheck = Checked<{
  /** The message asks for a permission mode (the control extension is then acted on). */
  readonly permissionMode: boolean;
  /** What it chose, when it creates a task (a message naming one chooses nothing). */
  readonly chosen?: NewTaskChoice;
}>;

const PASS: NewTaskCheck = { ok: true, permissionMode: false };

/**
 * Where the guard leaves a new task's `NewTaskChoice` in the request's call context
 * (`ServerCallContext.state`), which the SDK hands the executor: the message is read once.
 */
export const NEW_TASK_STATE_KEY = "claude-a2a.newTask";

/** The choice the guard left in a request's state, if it read one (an answer's new turn: none). */
export function chosenOf(
  state: ReadonlyMap<string, unknown> | undefined,
): NewTaskChoice | undefined {
  return state?.get(NEW_TASK_STATE_KEY) as NewTaskChoice | undefined;
}

/**
 * A new task's `metadata.maxBudgetUsd` (a positive number, not above `claude.maxBudgetUsd`), and
 * its `model`, `effort`, `sandbox` and `permissionMode` as the policies allow them (a sandbox or
 * mode wider than the workspace's, a mode without the control extension: refused), and its
 * `deliver` (`src/delivery/decision.ts`). Only the
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
  const settings =
    models || sandbox || permissionModes
      ? taskSettings(message.metadata, { models, sandbox, permissionModes }, controlActive)
      : { ok: true as const, settings: {} };
  if (!settings.ok) return settings;
  const delivery = policy.delivery
    ? requestedDelivery(message.metadata, policy.delivery, controlActive, CONTROL_EXTENSION_URI)
    : { ok: true as const, plan: undefined };
  if (!delivery.ok) return delivery;
  return {
    ok: true,
    // A delivery, like a permission mode, is the control extension acted on.
    permissionMode: settings.settings.permissionMode !== undefined || delivery.plan !== undefined,
    chosen: {
      budget: budget.budget,
      settings: settings.settings,
      ...(delivery.plan && { deliver: delivery.plan }),
    },
  };
}
