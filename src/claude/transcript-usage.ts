/**
 * What a session's transcript says its model calls used since some moment: the figures a task
 * keeps when the process that metered its runs died (restart recovery, `server_restarted`). The
 * runtime writes each assistant message as it goes, one entry per content block, every one with
 * the message's `usage`; its cost estimate is not among them (Claude Code saves it only at a
 * clean exit, `cost-state`), so the cost is left at 0 here.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { childConfigDir, transcriptDirStore } from "./history.js";
import { isRec, type Rec } from "./json.js";
import { isPrompt } from "./rewind.js";
import { addModels, addTokens, ZERO_TOKENS, type ModelUsage, type TokenCounts } from "./usage.js";

export interface TranscriptUsage extends TokenCounts {
  /** By model id, as the transcript names them; `costUsd` 0 (not in a transcript). */
  readonly models: Readonly<Record<string, ModelUsage>>;
  /** Model calls (distinct assistant messages). */
  readonly modelCalls: number;
  /** Prompts sent to the runtime (user entries that are not tool results). */
  readonly prompts: number;
}

const count = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

const at = (entry: Rec): number =>
  typeof entry.timestamp === "string" ? Date.parse(entry.timestamp) : Number.NaN;

function tokensOf(usage: unknown): TokenCounts {
  if (!isRec(usage)) return ZERO_TOKENS;
  return {
    inputTokens: count(usage.input_tokens),
    outputTokens: count(usage.output_tokens),
    cacheReadTokens: count(usage.cache_read_input_tokens),
    cacheCreationTokens: count(usage.cache_creation_input_tokens),
  };
}

/** A prompt sent to the runtime, not a compaction summary it wrote itself. */
const isSentPrompt = (entry: Rec): boolean => entry.isCompactSummary !== true && isPrompt(entry);

/**
 * The usage of the model calls in `entries` written at or after `sinceMs` (epoch ms); undefined
 * when there is none. A message split over several entries counts once, with its last figures.
 */
export function transcriptUsageSince(
  entries: readonly unknown[],
  sinceMs: number,
): TranscriptUsage | undefined {
  const calls = new Map<string, { model: string; tokens: TokenCounts }>();
  let prompts = 0;
  for (const entry of entries) {
    if (!isRec(entry) || !(at(entry) >= sinceMs)) continue;
    if (isSentPrompt(entry)) prompts++;
    const message = entry.message;
    if (entry.type !== "assistant" || !isRec(message) || entry.isApiErrorMessage === true) continue;
    const model = typeof message.model === "string" ? message.model : "unknown";
    if (model === "<synthetic>") continue;
    const id = typeof message.id === "string" ? message.id : `entry-${calls.size}`;
    calls.set(id, { model, tokens: tokensOf(message.usage) });
  }
  if (calls.size === 0) return undefined;
  let models: Record<string, ModelUsage> = {};
  for (const { model, tokens } of calls.values()) {
    models = addModels(models, { [model]: { ...tokens, costUsd: 0 } });
  }
  const total = Object.values(models).reduce<TokenCounts>(addTokens, ZERO_TOKENS);
  return { ...total, models, modelCalls: calls.size, prompts: Math.max(prompts, 1) };
}

/**
 * The usage in a session's transcript since `sinceMs`, read from the config dir the child runs
 * with (`env`: its environment; else this process's, else `~/.claude`). Undefined: none or unreadable.
 */
export async function readTranscriptUsage(
  sessionId: string,
  sinceMs: number,
  env?: Record<string, string | undefined>,
): Promise<TranscriptUsage | undefined> {
  const configDir =
    childConfigDir(env) ?? childConfigDir(process.env) ?? join(homedir(), ".claude");
  const entries = await transcriptDirStore(configDir).load({ projectKey: "", sessionId });
  return entries === null ? undefined : transcriptUsageSince(entries, sinceMs);
}
