import type { Matcher, ParsedRequest, ReplyBlock, MessageReply, Rule } from "./types.js";

function testText(pattern: string | RegExp, text: string): boolean {
  return typeof pattern === "string" ? text.includes(pattern) : pattern.test(text);
}

export function matches(m: Matcher, req: ParsedRequest): boolean {
  if (m.lastUserText !== undefined && !testText(m.lastUserText, req.lastUserText)) return false;
  if (m.toolResult !== undefined) {
    const pattern = m.toolResult;
    if (typeof pattern === "boolean") {
      if (pattern !== req.toolResults.length > 0) return false;
    } else if (!req.toolResults.some((r) => testText(pattern, r.content))) {
      return false;
    }
  }
  if (m.subagent !== undefined && m.subagent !== req.isSubagent) return false;
  if (m.when !== undefined && !m.when(req)) return false;
  return true;
}

export function ruleName(rule: Rule, index: number): string {
  return rule.name ?? `rule#${index}`;
}

/** First rule that matches and still has uses left; `uses` is updated by the caller. */
export function pickRule(
  rules: readonly Rule[],
  uses: ReadonlyMap<Rule, number>,
  req: ParsedRequest,
): { rule: Rule; index: number } | undefined {
  for (const [index, rule] of rules.entries()) {
    if (rule.times !== undefined && (uses.get(rule) ?? 0) >= rule.times) continue;
    if (matches(rule.match, req)) return { rule, index };
  }
  return undefined;
}

// Small constructors so scripts read like the conversation they describe.
export const text = (t: string): ReplyBlock => ({ type: "text", text: t });
export const toolUse = (name: string, input: Record<string, unknown>, id?: string): ReplyBlock =>
  id === undefined ? { type: "tool_use", name, input } : { type: "tool_use", name, input, id };
export const reply = (
  content: ReplyBlock | readonly ReplyBlock[],
  opts: Omit<MessageReply, "kind" | "content"> = {},
): MessageReply => ({
  kind: "message",
  content: Array.isArray(content) ? (content as readonly ReplyBlock[]) : [content as ReplyBlock],
  ...opts,
});
