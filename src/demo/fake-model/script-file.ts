import { z } from "zod";
import type { Matcher, Rule } from "./types.js";

/**
 * The JSON form of a script, for the standalone fake model. Patterns are strings; a string
 * written as "/.../flags" is a regular expression. Example:
 *   { "rules": [
 *       { "name": "hi", "match": { "lastUserText": "hello" },
 *         "reply": { "kind": "message", "content": [{ "type": "text", "text": "Hi!" }] } },
 *       { "match": { "toolResult": true }, "times": 1, "reply": { "kind": "overloaded" } } ] }
 */
const pattern = z.string();
// Strict objects throughout: a misspelt key ("matches", "tool_result") is an error, not a rule
// that silently matches everything.
const block = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("text"), text: z.string() }),
  z.strictObject({
    type: z.literal("tool_use"),
    name: z.string(),
    input: z.record(z.string(), z.unknown()),
    id: z.string().optional(),
  }),
]);
const message = z.strictObject({
  kind: z.literal("message"),
  content: z.array(block),
  stopReason: z.enum(["end_turn", "tool_use", "max_tokens", "stop_sequence"]).optional(),
  chunkSize: z.number().int().positive().optional(),
  chunkDelayMs: z.number().int().nonnegative().optional(),
  messageId: z.string().optional(),
});
const replySchema = z.discriminatedUnion("kind", [
  message,
  z.strictObject({ kind: z.literal("overloaded") }),
  z.strictObject({ kind: z.literal("bad_request"), message: z.string().optional() }),
  z.strictObject({
    kind: z.literal("drop"),
    reply: message,
    afterEvents: z.number().int().nonnegative(),
  }),
]);
const ruleSchema = z.strictObject({
  name: z.string().optional(),
  match: z
    .object({
      lastUserText: pattern.optional(),
      toolResult: z.union([z.boolean(), pattern]).optional(),
      subagent: z.boolean().optional(),
    })
    .strict(),
  reply: replySchema,
  times: z.number().int().positive().optional(),
});
export const scriptSchema = z.object({ rules: z.array(ruleSchema) }).strict();

/** A string, or a regular expression written "/…/flags"; `where` names it in an error. */
function toPattern(s: string, where: string): string | RegExp {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(s);
  if (!m) return s;
  try {
    return new RegExp(m[1] ?? "", m[2]);
  } catch (err) {
    throw new Error(`invalid fake-model script:\n${where}: ${(err as Error).message}`);
  }
}

export function loadScript(json: unknown): Rule[] {
  const parsed = scriptSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(`invalid fake-model script:\n${z.prettifyError(parsed.error)}`);
  return parsed.data.rules.map((r, i) => {
    const { lastUserText, toolResult, subagent } = r.match;
    const at = `rules[${i}].match`;
    const match: Matcher = {
      ...(lastUserText !== undefined && {
        lastUserText: toPattern(lastUserText, `${at}.lastUserText`),
      }),
      ...(toolResult !== undefined && {
        toolResult:
          typeof toolResult === "boolean" ? toolResult : toPattern(toolResult, `${at}.toolResult`),
      }),
      ...(subagent !== undefined && { subagent }),
    };
    return {
      ...(r.name !== undefined && { name: r.name }),
      match,
      reply: r.reply,
      ...(r.times !== undefined && { times: r.times }),
    };
  });
}
