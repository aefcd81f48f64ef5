/** How the client shows what a task cost (`metadata.usage`, docs/limits.md "Cost and limits"). Pure. */
import { formatUsd, type TaskUsage, type UsageFigures } from "../contract/usage.js";
import type { Colors } from "./colors.js";

const n = (count: number) => count.toLocaleString("en-US");

/** `30 in, 60 out tokens`, with the cache reads and writes when there are any. */
export function tokensText(u: UsageFigures): string {
  const parts = [`${n(u.inputTokens)} in`, `${n(u.outputTokens)} out`];
  if (u.cacheReadTokens > 0) parts.push(`${n(u.cacheReadTokens)} cache read`);
  if (u.cacheCreationTokens > 0) parts.push(`${n(u.cacheCreationTokens)} cache write`);
  return `${parts.join(", ")} tokens`;
}

/** What `send` and `chat` print after the final state: `$0.00099 · 30 in, 60 out tokens`. */
export const costText = (u: TaskUsage): string => `${formatUsd(u.costUsd)} · ${tokensText(u)}`;

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** The usage lines of `task ID`. */
export function usageLines(u: TaskUsage, c: Colors): string[] {
  const runs = `${u.runs} run${u.runs === 1 ? "" : "s"}`;
  const turns = `${u.modelTurns} model turn${u.modelTurns === 1 ? "" : "s"}`;
  const lines = [
    `${c.bold("Cost")}     ${formatUsd(u.costUsd)}  ${c.dim(`(${runs}, ${turns}, ${seconds(u.durationMs)})`)}`,
    `${c.bold("Tokens")}   ${tokensText(u)}`,
  ];
  for (const [model, m] of Object.entries(u.models)) {
    lines.push(`         ${c.dim(`${model}: ${formatUsd(m.costUsd)}, ${tokensText(m)}`)}`);
  }
  return lines;
}
