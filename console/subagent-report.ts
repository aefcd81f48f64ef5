/**
 * A subagent's report, out of the frame the runtime wraps it in for Claude: a `Task`/`Agent`
 * call's result is the report, indented, under a "[Subagent hand-back] …The report follows:"
 * paragraph (telling the model the report carries no user authority), after a
 * `<tools-used-before-summary>` line, and followed by `agentId: …` (how to continue the agent)
 * and a `<usage>` block. A reader wants the report, rendered, and the usage in a few words. The
 * frame's words are the runtime's and may change: what is not recognised is left as it is, so
 * nothing of the report is ever lost. Pure: no DOM.
 */

export interface SubagentUsage {
  readonly tokens?: number;
  readonly toolUses?: number;
  readonly durationMs?: number;
}

export interface SubagentReport {
  /** The report as the subagent wrote it (Markdown). */
  readonly report: string;
  readonly usage: SubagentUsage | undefined;
}

const HAND_BACK = "[Subagent hand-back]";
const FOLLOWS = "The report follows:";
const TOOLS_USED = /<tools-used-before-summary>[\s\S]*?<\/tools-used-before-summary>\s*/g;
const USAGE = /<usage>([\s\S]*?)<\/usage>\s*$/;
const AGENT_ID = /\n?agentId: [^\n]*\s*$/;

function usageOf(block: string): SubagentUsage {
  const field = (name: string): number | undefined => {
    const m = new RegExp(`^\\s*${name}:\\s*(\\d+)`, "m").exec(block);
    return m === null ? undefined : Number(m[1]);
  };
  const tokens = field("subagent_tokens") ?? field("total_tokens");
  const toolUses = field("tool_uses");
  const durationMs = field("duration_ms");
  return {
    ...(tokens !== undefined && { tokens }),
    ...(toolUses !== undefined && { toolUses }),
    ...(durationMs !== undefined && { durationMs }),
  };
}

/** `lines` without the indentation they all share (blank lines aside). */
function dedent(lines: readonly string[]): string {
  const indents = lines
    .filter((l) => l.trim() !== "")
    .map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0);
  const cut = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((l) => l.slice(cut)).join("\n");
}

/** The report in a `Task`/`Agent` call's `output`, and the subagent's usage if it says it. */
export function subagentReport(output: string): SubagentReport {
  let text = output.replace(/\r\n?/g, "\n").replace(TOOLS_USED, "");
  let usage: SubagentUsage | undefined;
  const u = USAGE.exec(text);
  if (u !== null) {
    usage = usageOf(u[1] ?? "");
    text = text.slice(0, u.index);
  }
  text = text.replace(AGENT_ID, "");
  const at = text.indexOf(HAND_BACK);
  if (at >= 0) {
    const follows = text.indexOf(FOLLOWS, at);
    const from = text.indexOf("\n", follows >= 0 ? follows : at);
    // The runtime indents every line of the report: the first line at column zero ends it.
    const lines = from < 0 ? [] : text.slice(from + 1).split("\n");
    const end = lines.findIndex((l) => l !== "" && !/^[ \t]/.test(l));
    text = dedent(end < 0 ? lines : lines.slice(0, end));
  }
  return { report: text.trim(), usage };
}

/** "30 tokens · 1 tool use · 1.1 s", from what the usage says. */
export function usageWords(usage: SubagentUsage): string {
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
  return [
    usage.tokens !== undefined && plural(usage.tokens, "token"),
    usage.toolUses !== undefined && plural(usage.toolUses, "tool use"),
    usage.durationMs !== undefined &&
      (usage.durationMs < 1000
        ? `${usage.durationMs} ms`
        : `${(usage.durationMs / 1000).toFixed(1)} s`),
  ]
    .filter((w): w is string => typeof w === "string")
    .join(" · ");
}
