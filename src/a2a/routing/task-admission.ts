import type { Message } from "@a2a-js/sdk";
import type { TurnSettings } from "../../claude/index.js";
import { delegationDepthOf } from "../../contract/delegation.js";
import { taskInbox } from "../../workspace/inbox.js";
import { InputError, planPrompt, type PromptPlan } from "../content/input.js";
import type { TurnPolicy } from "../task/environment.js";
import { taskSettings } from "../task/task-settings.js";
import { requestedBudget, type TaskBudget } from "../task/task-usage.js";
import { refuse, type Refusal } from "../../common/refusal.js";

/** What a client's new task runs with, or why it fails before it runs. */
export type Admission =
  | {
      readonly ok: true;
      readonly plan: PromptPlan;
      readonly budget: TaskBudget | undefined;
      readonly settings: TurnSettings;
      /** Its delegation depth (`metadata.delegationDepth`, docs/peers.md; 0: none). */
      readonly depth: number;
    }
  | Refusal;

/**
 * A new task's message, read once it is a task: its prompt (parts the server cannot take refuse
 * it), its budget (`metadata.maxBudgetUsd` within `claude.maxBudgetUsd`) and the model and effort
 * it chose. The request guard refused most of this already; this is what the task runs with.
 * Pure; anything thrown but an InputError is a bug, and is thrown on.
 */
export function admitTask(
  message: Pick<Message, "parts" | "metadata">,
  /** The task and its caller: where its attachments go (`taskInbox`). */
  task: { readonly owner: string; readonly taskId: string },
  policy: Pick<TurnPolicy, "maxBudgetUsd" | "models" | "sandbox" | "permissionModes">,
): Admission {
  let plan: PromptPlan;
  try {
    plan = planPrompt(message, taskInbox(task.owner, task.taskId));
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return refuse(err.message);
  }
  const budget = requestedBudget(message.metadata, policy.maxBudgetUsd);
  if (!budget.ok) return refuse(budget.reason);
  const { models, sandbox, permissionModes } = policy;
  const chosen =
    (models || sandbox || permissionModes) &&
    taskSettings(message.metadata, { models, sandbox, permissionModes });
  if (chosen !== undefined && !chosen.ok) return refuse(chosen.reason);
  const depth = delegationDepthOf(message.metadata);
  return { ok: true, plan, budget: budget.budget, settings: chosen?.settings ?? {}, depth };
}
