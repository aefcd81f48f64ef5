/** How the client shows what a task cost (`metadata.usage`, docs/limits.md "Cost and limits"). Pure. */
import {
  formatUsd,
  type DelegatedUsage,
  type TaskUsage,
  type UsageFigures,
} from "../contract/usage.js";
import type { Colors } from "./colors.js";

const n = (count: number) => count.toLocaleString("en-US");

/** `30 in, 60 out tokens`, with the cache reads and writes when there are any. */
export function tokensText(u: UsageFigures): string {
  const parts = [`${n(u.inputTokens)} in`, `${n(u.outputTokens)} out`];
  if (u.cacheReadTokens > 0) parts.push(`${n(u.cacheReadTokens)} cache read`);
  if (u.cacheCreationTokens > 0) parts.push(`${n(u.cacheCreationTokens)} cache write`);
  return `${parts.join(", ")} tokens`;
}

/**
 * What a task cost in all: its own runs' figures plus what its peers reported
 * (`usage.delegated`, docs/peers.md "Cost rolls up"), as its budget counts them.
 */
export function totalFigures(u: TaskUsage): UsageFigures {
  const d = u.delegated;
  if (d === undefined) return u;
  return {
    // Rounded as the server rounds a cost, so a sum of floats does not print 0.00066000000001.
    costUsd: Math.round((u.costUsd + d.costUsd) * 1e10) / 1e10,
    inputTokens: u.inputTokens + d.inputTokens,
    outputTokens: u.outputTokens + d.outputTokens,
    cacheReadTokens: u.cacheReadTokens + d.cacheReadTokens,
    cacheCreationTokens: u.cacheCreationTokens + d.cacheCreationTokens,
  };
}

/** `b`, `b and c`, `b, c and d`. */
function namesText(names: readonly string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)!}`;
}

/** `delegated to b`, or plain `delegated` when the peers' names are not known. */
const delegatedTo = (agents: readonly string[]): string =>
  agents.length === 0 ? "delegated" : `delegated to ${namesText(agents)}`;

const callsText = (d: DelegatedUsage): string => `${d.calls} call${d.calls === 1 ? "" : "s"}`;

/**
 * What `send` and `chat` print after the final state: `$0.00099 · 30 in, 60 out tokens`; a task
 * that delegated shows its whole cost and then the peers' part of it:
 * `$0.0013 · 40 in, 80 out tokens · incl. $0.00066 delegated to b`. `agents`: the peers' names
 * (`metadata.delegatedTasks`).
 */
export function costText(u: TaskUsage, agents: readonly string[] = []): string {
  const total = totalFigures(u);
  const line = `${formatUsd(total.costUsd)} · ${tokensText(total)}`;
  return u.delegated === undefined
    ? line
    : `${line} · incl. ${formatUsd(u.delegated.costUsd)} ${delegatedTo(agents)}`;
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** The usage lines of `task ID`: the whole cost, then its parts by model and the peers' part. */
export function usageLines(u: TaskUsage, c: Colors, agents: readonly string[] = []): string[] {
  const runs = `${u.runs} run${u.runs === 1 ? "" : "s"}`;
  const turns = `${u.modelTurns} model turn${u.modelTurns === 1 ? "" : "s"}`;
  const total = totalFigures(u);
  const lines = [
    `${c.bold("Cost")}     ${formatUsd(total.costUsd)}  ${c.dim(`(${runs}, ${turns}, ${seconds(u.durationMs)})`)}`,
    `${c.bold("Tokens")}   ${tokensText(total)}`,
  ];
  for (const [model, m] of Object.entries(u.models)) {
    lines.push(`         ${c.dim(`${model}: ${formatUsd(m.costUsd)}, ${tokensText(m)}`)}`);
  }
  const d = u.delegated;
  if (d !== undefined) {
    lines.push(
      `         ${c.dim(`${delegatedTo(agents)}: ${formatUsd(d.costUsd)}, ${tokensText(d)} (${callsText(d)})`)}`,
    );
  }
  return lines;
}
