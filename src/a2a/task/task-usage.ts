import { addModels, addTokens, roundUsd, type RunUsage } from "../../claude/index.js";
import type { Task } from "@a2a-js/sdk";
import { TEXT } from "../../contract/texts.js";
import {
  MAX_BUDGET_KEY,
  usageMetadata,
  type BudgetSource,
  type TaskUsage,
  type UsageFigures,
} from "../../contract/usage.js";
import { refuse, type Checked } from "../../common/refusal.js";

/** A task's usage with one more run's added (docs/limits.md "Cost and limits"). Pure. */
export function addRunUsage(total: TaskUsage, run: RunUsage): TaskUsage {
  return {
    ...addTokens(total, run),
    costUsd: roundUsd(total.costUsd + run.costUsd),
    models: addModels(total.models, run.models),
    modelTurns: total.modelTurns + run.modelTurns,
    durationMs: total.durationMs + run.durationMs,
    runs: total.runs + 1,
    ...(total.delegated !== undefined && { delegated: total.delegated }),
  };
}

/**
 * A task's usage with what a peer reported a delegated call cost added to `delegated`; the
 * task's own figures stay its own runs' (docs/peers.md "Cost rolls up"). Pure.
 */
export function addDelegatedUsage(total: TaskUsage, peer: UsageFigures): TaskUsage {
  const before = total.delegated ?? { ...EMPTY_FIGURES, calls: 0 };
  return {
    ...total,
    delegated: {
      ...addTokens(before, peer),
      costUsd: roundUsd(before.costUsd + peer.costUsd),
      calls: before.calls + 1,
    },
  };
}

const EMPTY_FIGURES: UsageFigures = {
  costUsd: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheCreationTokens: 0,
};

/** What a task may spend (USD), and who said so. */
export interface TaskBudget {
  readonly usd: number;
  readonly source: BudgetSource;
}

export type BudgetRequest = Checked<{ readonly budget: TaskBudget | undefined }>;

/** `claude.maxBudgetUsd` as a task's budget (unset: none). */
export const configuredBudget = (maxBudgetUsd: number | undefined): TaskBudget | undefined =>
  maxBudgetUsd === undefined ? undefined : { usd: maxBudgetUsd, source: "claude.maxBudgetUsd" };

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

/**
 * Checked when each run of a task ends (the runtime's budget option counts a whole process, so
 * it cannot bound one task of a conversation): the FAILED text once the task has spent more than
 * its budget, else undefined. Pure.
 */
export function budgetStop(
  usage: Pick<TaskUsage, "costUsd" | "delegated">,
  budget: TaskBudget | undefined,
): string | undefined {
  // What its peers reported counts too: a delegated call spends the caller's money.
  const spent = roundUsd(usage.costUsd + (usage.delegated?.costUsd ?? 0));
  if (budget === undefined || spent <= budget.usd) return undefined;
  return TEXT.budgetExceeded(budget.usd, spent, budget.source);
}

/** The stored task with this usage in its metadata (a late run's cost, after it ended). Pure. */
export const withStoredUsage =
  (usage: TaskUsage) =>
  (task: Task): Task => ({ ...task, metadata: { ...task.metadata, ...usageMetadata(usage) } });
