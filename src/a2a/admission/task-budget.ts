import { refuse, type Checked } from "../../common/refusal.js";
import { TEXT } from "../../contract/texts.js";
import { MAX_BUDGET_KEY } from "../../contract/usage.js";
import { configuredBudget, type TaskBudget } from "../task/task-usage.js";

export type BudgetRequest = Checked<{ readonly budget: TaskBudget | undefined }>;

/**
 * The budget of the task a message creates: its `metadata.maxBudgetUsd`, which may lower
 * `claude.maxBudgetUsd` but never raise it, else the configured one. Pure.
 */
export function requestedBudget(
  metadata: Readonly<Record<string, unknown>> | undefined,
  maxBudgetUsd: number | undefined,
): BudgetRequest {
  if (metadata === undefined || !Object.hasOwn(metadata, MAX_BUDGET_KEY)) {
    return { ok: true, budget: configuredBudget(maxBudgetUsd) };
  }
  const asked = metadata[MAX_BUDGET_KEY];
  if (typeof asked !== "number" || !Number.isFinite(asked) || asked <= 0) {
    return refuse(TEXT.budgetNotANumber(asked));
  }
  if (maxBudgetUsd !== undefined && asked > maxBudgetUsd) {
    return refuse(TEXT.budgetAboveLimit(asked, maxBudgetUsd));
  }
  return { ok: true, budget: { usd: asked, source: "metadata.maxBudgetUsd" } };
}
