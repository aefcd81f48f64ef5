import { homedir } from "node:os";
import { join } from "node:path";
import { childConfigDir, findTranscript, type HistoryLocation } from "./history.js";
import { lastLineMatching } from "./transcript-tail.js";
import { parseModelUsage, type UsageTotals } from "./usage.js";

/** The cost totals a resumed session's runtime starts from; undefined when it starts from 0. */
export type UsageBaselineLoader = (
  sessionId: string,
  where: HistoryLocation,
) => Promise<UsageTotals | undefined>;

/**
 * Reads the last `cost-state` entry of the session's transcript: the totals Claude Code saved at
 * its last clean exit and continues from when the session is resumed (verified on 2.1.332; a
 * process killed with SIGKILL saves none, and its successor starts from the one before, or 0).
 * Read from the file's end: a clean exit writes it last, so a long conversation is not reparsed.
 */
export const defaultUsageBaselineLoader: UsageBaselineLoader = async (sessionId, { env }) => {
  const configDir =
    childConfigDir(env) ?? childConfigDir(process.env) ?? join(homedir(), ".claude");
  const path = await findTranscript(configDir, sessionId);
  if (path === undefined) return undefined;
  return lastLineMatching(path, '"cost-state"', (line) => costStateOf(parseLine(line), sessionId));
};

function parseLine(line: string): Record<string, unknown>[] {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null ? [value as Record<string, unknown>] : [];
  } catch {
    // A torn line (the runtime was writing) holds nothing to start from.
    return [];
  }
}

/** The totals of the last `cost-state` entry of a session's transcript entries. */
export function costStateOf(
  entries: readonly Record<string, unknown>[],
  sessionId: string,
): UsageTotals | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e?.type !== "cost-state") continue;
    if (typeof e.sessionId === "string" && e.sessionId !== sessionId) continue;
    const cost = typeof e.totalCostUSD === "number" ? e.totalCostUSD : 0;
    return { costUsd: cost, models: parseModelUsage(e.modelUsage) };
  }
  return undefined;
}
