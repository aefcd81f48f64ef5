import { z } from "zod";

/**
 * `limits`: what one caller may start, run at once and spend per UTC day. A caller is its scope
 * (`token:<name>`, `login:<login>`, `unknown` for the anonymous caller, and whatever other
 * authentication adds, e.g. an OIDC subject's scope); `limits.callers` entries name scopes by
 * pattern.
 */

/** `token:ci` exactly, or a prefix ending in one `*` (`login:*`, `*`). */
export const SCOPE_PATTERN = /^[^*]*\*?$/;

const PATTERN_ERROR =
  'expected a caller scope such as "token:ci", "login:ada@example.com" or "unknown", or a ' +
  'prefix ending in "*" such as "login:*" ("*" alone: every caller)';

// `null`: no limit for the callers of an entry, whatever `limits.default` says.
const count = (what: string) =>
  z
    .int({ error: `expected a positive integer (${what}) or null (no limit)` })
    .min(1, { error: `expected a positive integer (${what}) or null (no limit)` })
    .nullable()
    .optional();
const usd = () =>
  z
    .number({ error: "expected a positive number of US dollars or null (no limit)" })
    .positive({ error: "expected a positive number of US dollars or null (no limit)" })
    .nullable()
    .optional();

const values = {
  tasksPerMinute: count("tasks").describe(
    "Most tasks a caller may start in any 60 seconds. Unset: no limit.",
  ),
  concurrentTasks: count("tasks").describe(
    "Most tasks of a caller not yet ended (submitted, working or input-required) at once. " +
      "Unset: no limit.",
  ),
  dailyBudgetUsd: usd().describe(
    "Most US dollars a caller's tasks may cost per UTC day (the runtime's own cost figures). " +
      "Unset: no limit.",
  ),
};

export const limitValuesSchema = z.strictObject(values);

const callerSchema = z.strictObject({
  match: z
    .string({ error: PATTERN_ERROR })
    .trim()
    .min(1, { error: PATTERN_ERROR })
    .regex(SCOPE_PATTERN, { error: PATTERN_ERROR })
    .describe(
      'Caller scope, exact ("token:ci", "login:ada@example.com", "unknown") or a prefix ending ' +
        'in "*" ("login:*"). The first matching entry applies.',
    ),
  ...values,
});

export const limitsSchema = z
  .strictObject({
    default: limitValuesSchema
      .prefault({})
      .describe("Limits of every caller; an entry of `callers` overrides them key by key."),
    callers: z
      .array(callerSchema, { error: "expected an array of { match, ...limits }" })
      .default([])
      .describe(
        "Entries { match, tasksPerMinute?, concurrentTasks?, dailyBudgetUsd? }: the first " +
          "entry whose match names the caller's scope (exactly, or a prefix ending in *) " +
          "overrides limits.default key by key; null is no limit.",
      ),
  })
  .prefault({})
  .describe(
    "Per-caller limits: tasks started per minute, tasks at once, US dollars per UTC day. Each " +
      "caller has its own counters; a request over a limit is refused before any task exists.",
  );

export type LimitsConfig = z.output<typeof limitsSchema>;
