/**
 * What model calls cost, as the Claude Code runtime reports it on each turn's `result`, and how
 * one run's share is taken from it. A leaf: it imports only the JSON guards.
 *
 * The runtime's `total_cost_usd` and `modelUsage` are running totals of its process: each result
 * carries the total so far (streaming input: every turn of the conversation), and a resumed
 * session starts from the total its transcript saved at the last clean exit (verified on Claude
 * Code 2.1.332: a `cost-state` entry; none after a SIGKILL, and the resumed total starts at 0).
 * So a run's share is the difference from the previous result, and a resumed process starts
 * from that saved total. `usage` is per turn but counts the main loop only (no subagents), and
 * carries no cost: it is used only when a result has no `modelUsage`.
 */
import { isRec, type Rec } from "./json.js";

/** Token counts of model calls (the Messages API's four kinds). */
export interface TokenCounts {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  /** Cache writes (`cache_creation_input_tokens`). */
  readonly cacheCreationTokens: number;
}

/** Tokens and the runtime's estimated cost (USD) of some model calls. */
export interface ModelUsage extends TokenCounts {
  readonly costUsd: number;
}

/** What one run (one turn of the runtime) cost: the runtime's own figures. */
export interface RunUsage extends ModelUsage {
  /** By model id, as the runtime names them (`modelUsage` keys). */
  readonly models: Readonly<Record<string, ModelUsage>>;
  /** Model round-trips of the turn (`num_turns`). */
  readonly modelTurns: number;
  /** The turn's wall time in ms (`duration_ms`). */
  readonly durationMs: number;
}

/** The runtime's running totals for its process (see the top of this file). */
export interface UsageTotals {
  readonly costUsd: number;
  readonly models: Readonly<Record<string, ModelUsage>>;
}

/** The usage figures of one `result` message, as the runtime sent them. */
export interface ResultUsageReport {
  /** `total_cost_usd` and `modelUsage`: undefined when the result has neither. */
  readonly totals: UsageTotals | undefined;
  /** `usage`: this turn's main loop only. */
  readonly turnTokens: TokenCounts | undefined;
  readonly modelTurns: number;
  readonly durationMs: number;
}

export const ZERO_TOKENS: TokenCounts = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheCreationTokens: 0,
};

export const ZERO_TOTALS: UsageTotals = { costUsd: 0, models: {} };

const TOKEN_KEYS = [
  "inputTokens",
  "outputTokens",
  "cacheReadTokens",
  "cacheCreationTokens",
] as const;

/** Float sums of prices drift (0.00066 - 0.00033 = 0.00033000000000000005): keep 10 decimals. */
export const roundUsd = (usd: number): number => Math.round(usd * 1e10) / 1e10;

export function addTokens(a: TokenCounts, b: TokenCounts): TokenCounts {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheCreationTokens: a.cacheCreationTokens + b.cacheCreationTokens,
  };
}

export function addModelUsage(a: ModelUsage, b: ModelUsage): ModelUsage {
  return { ...addTokens(a, b), costUsd: roundUsd(a.costUsd + b.costUsd) };
}

/** `models` of `b` added into those of `a`, model by model. */
export function addModels(
  a: Readonly<Record<string, ModelUsage>>,
  b: Readonly<Record<string, ModelUsage>>,
): Record<string, ModelUsage> {
  const out: Record<string, ModelUsage> = { ...a };
  for (const [model, figures] of Object.entries(b)) {
    const before = out[model];
    out[model] = before === undefined ? figures : addModelUsage(before, figures);
  }
  return out;
}

function isEmpty(totals: UsageTotals): boolean {
  return (
    totals.costUsd === 0 &&
    Object.values(totals.models).every(
      (m) => m.costUsd === 0 && TOKEN_KEYS.every((k) => m[k] === 0),
    )
  );
}

/** The runtime's totals went down: it started counting again (`/clear`, or a new process). */
function wentDown(previous: UsageTotals, now: UsageTotals): boolean {
  if (now.costUsd < previous.costUsd) return true;
  return Object.entries(previous.models).some(([model, before]) => {
    const after = now.models[model];
    return after === undefined || TOKEN_KEYS.some((k) => after[k] < before[k]);
  });
}

function difference(now: UsageTotals, previous: UsageTotals): Record<string, ModelUsage> {
  const out: Record<string, ModelUsage> = {};
  for (const [model, after] of Object.entries(now.models)) {
    const before = previous.models[model];
    const delta: ModelUsage =
      before === undefined
        ? after
        : {
            inputTokens: after.inputTokens - before.inputTokens,
            outputTokens: after.outputTokens - before.outputTokens,
            cacheReadTokens: after.cacheReadTokens - before.cacheReadTokens,
            cacheCreationTokens: after.cacheCreationTokens - before.cacheCreationTokens,
            costUsd: roundUsd(after.costUsd - before.costUsd),
          };
    // A model the turn did not call is not one of the run's models.
    if (delta.costUsd !== 0 || TOKEN_KEYS.some((k) => delta[k] !== 0)) out[model] = delta;
  }
  return out;
}

/**
 * One run's share of the runtime's totals, and the totals the next result is measured from.
 * Pure: the decision table of the meter (unit-tested).
 */
export function meterRun(
  previous: UsageTotals,
  report: ResultUsageReport,
): { usage: RunUsage; totals: UsageTotals } {
  const turn = { modelTurns: report.modelTurns, durationMs: report.durationMs };
  const now = report.totals;
  if (now === undefined) {
    // No running totals: the turn's own tokens, no cost known.
    const tokens = report.turnTokens ?? ZERO_TOKENS;
    return { usage: { ...tokens, costUsd: 0, models: {}, ...turn }, totals: previous };
  }
  if (isEmpty(now) && !isEmpty(previous)) {
    // A crash or startup-error result carries zeroed totals: it spent nothing, and the next
    // real result is still measured from what came before.
    return { usage: { ...ZERO_TOKENS, costUsd: 0, models: {}, ...turn }, totals: previous };
  }
  const base = wentDown(previous, now) ? ZERO_TOTALS : previous;
  const models = difference(now, base);
  let tokens = Object.values(models).reduce<TokenCounts>(addTokens, ZERO_TOKENS);
  if (Object.keys(now.models).length === 0 && report.turnTokens !== undefined) {
    tokens = report.turnTokens;
  }
  const costUsd = Math.max(0, roundUsd(now.costUsd - base.costUsd));
  return { usage: { ...tokens, costUsd, models, ...turn }, totals: now };
}

/** Meters the results of one process, in order, from the totals it started with. */
export class UsageMeter {
  private totals: UsageTotals = ZERO_TOTALS;

  /** A resumed process starts from the totals its transcript saved. */
  startFrom(totals: UsageTotals): void {
    this.totals = totals;
  }

  take(report: ResultUsageReport): RunUsage {
    const { usage, totals } = meterRun(this.totals, report);
    this.totals = totals;
    return usage;
  }
}

const count = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** The runtime's `modelUsage` (also in a transcript's `cost-state`): camelCase figures per model. */
export function parseModelUsage(raw: unknown): Record<string, ModelUsage> {
  const out: Record<string, ModelUsage> = {};
  if (!isRec(raw)) return out;
  for (const [model, m] of Object.entries(raw)) {
    if (!isRec(m)) continue;
    out[model] = {
      inputTokens: count(m.inputTokens),
      outputTokens: count(m.outputTokens),
      cacheReadTokens: count(m.cacheReadInputTokens),
      cacheCreationTokens: count(m.cacheCreationInputTokens),
      costUsd: count(m.costUSD),
    };
  }
  return out;
}

/** The API's `usage` object (snake_case). */
export function parseTokenCounts(raw: unknown): TokenCounts | undefined {
  if (!isRec(raw)) return undefined;
  return {
    inputTokens: count(raw.input_tokens),
    outputTokens: count(raw.output_tokens),
    cacheReadTokens: count(raw.cache_read_input_tokens),
    cacheCreationTokens: count(raw.cache_creation_input_tokens),
  };
}

/** The usage figures of a raw `result` message. */
export function resultUsageReport(m: Rec): ResultUsageReport {
  const hasTotals = typeof m.total_cost_usd === "number" || isRec(m.modelUsage);
  return {
    totals: hasTotals
      ? { costUsd: count(m.total_cost_usd), models: parseModelUsage(m.modelUsage) }
      : undefined,
    turnTokens: parseTokenCounts(m.usage),
    modelTurns: count(m.num_turns),
    durationMs: count(m.duration_ms),
  };
}
