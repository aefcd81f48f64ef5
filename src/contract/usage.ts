/**
 * What a task cost, as clients see it: the `metadata.usage` shape of a task's final status (the
 * SDK merges it into the stored task's `metadata`), the per-task budget a message may set, and
 * their texts. docs/limits.md "Cost and limits". Pure, no imports: the terminal client reads it too.
 */

/** Tokens and the runtime's estimated cost (USD) of some model calls. */
export interface UsageFigures {
  readonly costUsd: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  /** Cache writes. */
  readonly cacheCreationTokens: number;
}

/** `metadata.usage`: the task's runs (its client's turns and its wakes), summed. */
export interface TaskUsage extends UsageFigures {
  /** By model id, as Claude Code names them. */
  readonly models: Readonly<Record<string, UsageFigures>>;
  /** Model round-trips of all its runs (the runtime's `num_turns`, summed). */
  readonly modelTurns: number;
  /** Wall time of its runs in ms (the runtime's `duration_ms`, summed): not the task's age. */
  readonly durationMs: number;
  /** Runs that reported usage. */
  readonly runs: number;
}

/** The task metadata key of its usage. */
export const USAGE_KEY = "usage";

/** The message metadata key of a per-task budget (USD), on the message that creates the task. */
export const MAX_BUDGET_KEY = "maxBudgetUsd";

export const EMPTY_USAGE: TaskUsage = {
  costUsd: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheCreationTokens: 0,
  models: {},
  modelTurns: 0,
  durationMs: 0,
  runs: 0,
};

const FIGURES = [
  "costUsd",
  "inputTokens",
  "outputTokens",
  "cacheReadTokens",
  "cacheCreationTokens",
] as const;

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;

function figuresOf(v: unknown): UsageFigures | undefined {
  if (!isRec(v) || !FIGURES.every((k) => isCount(v[k]))) return undefined;
  const [costUsd, inputTokens, outputTokens, cacheReadTokens, cacheCreationTokens] = FIGURES.map(
    (k) => v[k] as number,
  ) as [number, number, number, number, number];
  return { costUsd, inputTokens, outputTokens, cacheReadTokens, cacheCreationTokens };
}

/** A task's usage from its (or its status event's) metadata; undefined when absent or malformed. */
export function usageOf(metadata: Rec | undefined): TaskUsage | undefined {
  const raw = metadata?.[USAGE_KEY];
  const figures = figuresOf(raw);
  if (figures === undefined || !isRec(raw)) return undefined;
  const models: Record<string, UsageFigures> = {};
  if (isRec(raw.models)) {
    for (const [model, m] of Object.entries(raw.models)) {
      const f = figuresOf(m);
      if (f !== undefined) models[model] = f;
    }
  }
  const num = (v: unknown) => (isCount(v) ? v : 0);
  return {
    ...figures,
    models,
    modelTurns: num(raw.modelTurns),
    durationMs: num(raw.durationMs),
    runs: num(raw.runs),
  };
}

/** `$0.00033`, `$0.013`, `$1.25`: two significant digits below a dollar, cents above. */
export function formatUsd(usd: number): string {
  if (!Number.isFinite(usd) || usd <= 0) return "$0";
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  const digits = Math.min(10, 1 - Math.floor(Math.log10(usd)));
  // Trailing zeros go (0.00050 is $0.0005), down to cents ($0.50).
  return `$${usd.toFixed(digits).replace(/(\.\d\d\d*?)0+$/, "$1")}`;
}

/** Where a task's budget came from, as the texts name it. */
export type BudgetSource = "claude.maxBudgetUsd" | "metadata.maxBudgetUsd";

/** The metadata of a task's final status: its usage (the SDK merges it into the stored task's). */
export const usageMetadata = (usage: TaskUsage): Record<string, unknown> => ({
  [USAGE_KEY]: usage,
});
