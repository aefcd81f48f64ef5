import type { Message } from "@a2a-js/sdk";
import type { TurnSettings } from "../../claude/index.js";
import { delegationDepthOf } from "../../contract/delegation.js";
import { taskInbox } from "../../workspace/inbox.js";
import { InputError, planPrompt, type PromptPlan } from "../content/input.js";
import type { TurnPolicy } from "../task/environment.js";
import { taskSettings } from "./task-settings.js";
import type { TaskBudget } from "../task/task-usage.js";
import type { NewTaskChoice } from "./new-task-guard.js";
import { requestedBudget } from "./task-budget.js";
import { refuse, type Refusal } from "../../common/refusal.js";
import { CONTROL_EXTENSION_URI } from "../../contract/control.js";
import { requestedDelivery, type DeliveryPlan } from "../../delivery/decision.js";

/** What a client's new task runs with, or why it fails before it runs. */
export type Admission =
  | {
      readonly ok: true;
      readonly plan: PromptPlan;
      readonly budget: TaskBudget | undefined;
      readonly settings: TurnSettings;
      /** Its delegation depth (`metadata.delegationDepth`, docs/peers.md; 0: none). */
      readonly depth: number;
      /** Its delivery (`metadata.deliver`); unset: none. */
      readonly deliver?: DeliveryPlan;
    }
  | Refusal;

/**
 * A new task's message, read once it is a task: its prompt (parts the server cannot take refuse
 * it), its budget (`metadata.maxBudgetUsd` within `claude.maxBudgetUsd`) and the model and effort
 * it chose. The request guard refused most of this already, and what it read (`chosen`, from
 * the request's call context) is taken as it is; without it (an answer's new turn, a forwarded
 * send), the message is read here. Pure; anything thrown but an InputError is a bug, and is
 * thrown on.
 */
export function admitTask(
  message: Pick<Message, "parts" | "metadata">,
  /** The task and its caller: where its attachments go (`taskInbox`). */
  task: { readonly owner: string; readonly taskId: string },
  policy: Pick<TurnPolicy, "maxBudgetUsd" | "models" | "sandbox" | "permissionModes" | "delivery">,
  chosen?: NewTaskChoice,
): Admission {
  let plan: PromptPlan;
  try {
    plan = planPrompt(message, taskInbox(task.owner, task.taskId));
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return refuse(err.message);
  }
  const depth = delegationDepthOf(message.metadata);
  if (chosen !== undefined) return { ok: true, plan, ...chosen, depth };
  const budget = requestedBudget(message.metadata, policy.maxBudgetUsd);
  if (!budget.ok) return refuse(budget.reason);
  const { models, sandbox, permissionModes } = policy;
  const asked =
    (models || sandbox || permissionModes) &&
    taskSettings(message.metadata, { models, sandbox, permissionModes });
  if (asked !== undefined && !asked.ok) return refuse(asked.reason);
  // The guard checked the extension already; here the message is read as it was admitted.
  const delivery = policy.delivery
    ? requestedDelivery(message.metadata, policy.delivery, true, CONTROL_EXTENSION_URI)
    : undefined;
  if (delivery !== undefined && !delivery.ok) return refuse(delivery.reason);
  const deliver = delivery?.plan;
  const settings = asked?.settings ?? {};
  return { ok: true, plan, budget: budget.budget, settings, depth, ...(deliver && { deliver }) };
}
