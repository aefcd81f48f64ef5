import { z } from "zod";
import { forgeSchema } from "./forge-schema.js";
import { triggerDeliverSchema } from "./trigger-deliver-schema.js";
import { limitValuesSchema, type LimitsConfig } from "./limits-schema.js";
import { byteSize, httpUrl, name, names, positiveInt } from "./schema-parts.js";
import { cronProblem, timeZoneProblem } from "./cron.js";
import { WORKSPACE_NAME } from "./workspace-names.js";

/**
 * `triggers` (top level for the workspace at the root, `workspaces.<name>.triggers` for a
 * workspace): events that start tasks with no A2A client calling (docs/triggers.md). Each is a
 * caller of its own, `trigger:<name>`.
 */

const TRIGGER_NAME_ERROR =
  "expected a trigger name: lowercase letters, digits and inner hyphens, at most 63 characters";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `{{a.b.c}}`: a dotted path of letters, digits, `_` and `-`. */
export const TEMPLATE_VARIABLE = /\{\{\s*([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\s*\}\}/g;

/** What is left of a template once its variables are taken out: no stray `{{` or `}}`. Pure. */
export function templateProblem(template: string): string | undefined {
  const rest = template.replace(TEMPLATE_VARIABLE, "");
  if (!rest.includes("{{") && !rest.includes("}}")) return undefined;
  return (
    "a {{ or }} that is not a variable: write {{name}} or {{a.b.c}} (letters, digits, _ and -, " +
    "separated by dots)"
  );
}

const filtersSchema = z
  .strictObject({
    events: names()
      .optional()
      .describe(
        'Event types that start a task (X-GitHub-Event such as "issues", X-Gitlab-Event such ' +
          'as "Issue Hook", or the payload\'s "type" for hmac). Unset: every event.',
      ),
    actions: names()
      .optional()
      .describe('The payload\'s action (GitHub "action", GitLab object_attributes.action).'),
    labels: names()
      .optional()
      .describe(
        "Labels, one of which the event must carry: the label just added for a GitHub " +
          "\"labeled\" action, else the issue's or merge request's labels.",
      ),
    commentPrefix: name()
      .optional()
      .describe('A comment\'s body must start with this, such as "/claude".'),
    authorAssociations: names()
      .optional()
      .describe(
        'GitHub\'s author_association of the comment, issue or pull request ("OWNER", ' +
          '"MEMBER", "COLLABORATOR"…); an event without one is filtered out.',
      ),
  })
  .describe("Which events start a task; every filter set must pass. Unset: every event.");

const resultSchema = z
  .strictObject({
    comment: z
      .boolean({ error: "expected true or false" })
      .default(true)
      .describe("Comment on the event's issue, pull request or merge request when its task ends."),
    forge: forgeSchema,
    maxAnswerChars: positiveInt()
      .default(4000)
      .describe("Longest final answer quoted in the comment; a longer one is cut, saying so."),
  })
  .describe(
    "Where the result goes when a task of this trigger ends (docs/triggers.md#result-comments): " +
      "a comment with the final answer and the task's console link, posted with the server's " +
      "token for that forge. Unset: nothing is posted.",
  );

const webhookSchema = z.strictObject({
  kind: z.literal("webhook"),
  verify: z
    .enum(["github", "gitlab", "hmac"], { error: 'expected "github", "gitlab" or "hmac"' })
    .describe(
      '"github": X-Hub-Signature-256; "gitlab": X-Gitlab-Token; "hmac": Standard Webhooks ' +
        "(webhook-id, webhook-timestamp, webhook-signature) within toleranceSeconds.",
    ),
  secretEnv: z
    .string({ error: "expected an environment variable name" })
    .regex(ENV_NAME, { error: "expected an environment variable name" })
    .describe("The environment variable holding the shared secret; it must be set at startup."),
  filters: filtersSchema.optional(),
  prompt: name()
    .refine((t) => templateProblem(t) === undefined, {
      error: (i) => templateProblem(i.input as string),
    })
    .describe(
      "The task's prompt, a template over the event: {{issue.title}}, {{event}}… " +
        "(docs/triggers.md); the payload's text is quoted as untrusted.",
    ),
  conversation: z
    .enum(["new", "subject"], { error: 'expected "new" or "subject"' })
    .default("new")
    .describe(
      '"new": each event a conversation of its own; "subject": the conversation of the ' +
        "event's issue or pull request (or merge request), the same for each event about it.",
    ),
  permissions: z
    .enum(["deny", "operator"], { error: 'expected "deny" or "operator"' })
    .default("deny")
    .describe(
      'What a permission prompt of its tasks gets: "deny" at once (no human is there), or ' +
        '"operator": the task waits for an operator (server.operators) to answer, within ' +
        "claude.inputTimeoutMs.",
    ),
  allowUnsandboxed: z
    .boolean({ error: "expected true or false" })
    .default(false)
    .describe(
      "Start even though the workspace's claude.sandbox is off. A webhook's payload is text " +
        "written by strangers; off, the trigger refuses to start.",
    ),
  maxBodyBytes: byteSize
    .prefault("1mb")
    .describe('Largest request body taken; a larger one gets 413. Bytes or a size ("1mb").'),
  maxFieldChars: positiveInt()
    .default(4000)
    .describe("Longest text of one template variable; a longer one is cut, saying so."),
  toleranceSeconds: positiveInt()
    .default(300)
    .describe('With verify "hmac": how far webhook-timestamp may be from the server\'s clock.'),
  push: z
    .strictObject({
      url: httpUrl().describe(
        "The webhook's URL (server.pushAllowPrivateNetworks for a private one).",
      ),
      tokenEnv: z
        .string({ error: "expected an environment variable name" })
        .regex(ENV_NAME, { error: "expected an environment variable name" })
        .optional()
        .describe("The variable holding the token sent as X-A2A-Notification-Token. Unset: none."),
    })
    .optional()
    .describe(
      "A push-notification target of each of its tasks, as a client's " +
        "taskPushNotificationConfig (docs/tasks.md#push-notifications). Unset: none.",
    ),
  limits: limitValuesSchema
    .optional()
    .describe(
      "Its limits as a caller (tasksPerMinute, concurrentTasks, dailyBudgetUsd), as a " +
        'limits.callers entry matching "trigger:<name>" would set them.',
    ),
  result: resultSchema.optional(),
  deliver: triggerDeliverSchema,
});

/** The variables of a schedule's prompt (docs/triggers.md "Schedules"); no other is known. */
export const SCHEDULE_VARIABLES = [
  "trigger",
  "schedule.name",
  "schedule.time",
  "schedule.localTime",
  "schedule.timeZone",
  "schedule.cron",
  "schedule.firing",
] as const;

/** A variable of a schedule's template that is not one of its own, named, or undefined. Pure. */
function scheduleTemplateProblem(template: string): string | undefined {
  const known: readonly string[] = SCHEDULE_VARIABLES;
  for (const [, variable] of template.matchAll(TEMPLATE_VARIABLE)) {
    if (variable !== undefined && !known.includes(variable)) {
      return `{{${variable}}} is not a schedule's variable: use ${SCHEDULE_VARIABLES.map((v) => `{{${v}}}`).join(", ")}`;
    }
  }
  return templateProblem(template);
}

const scheduleSchema = z.strictObject({
  kind: z.literal("schedule"),
  cron: z
    .string({ error: "expected a cron expression" })
    .refine((c) => cronProblem(c) === undefined, {
      error: (i) => cronProblem(i.input as string),
    })
    .describe(
      'When it fires: five fields ("0 3 * * *": 03:00 every day), or six with seconds first.',
    ),
  timeZone: z
    .string({ error: "expected a time zone" })
    .refine((t) => timeZoneProblem(t) === undefined, {
      error: (i) => timeZoneProblem(i.input as string),
    })
    .optional()
    .describe('The IANA time zone the cron is read in ("Europe/Paris"). Unset: UTC.'),
  catchUp: z
    .enum(["skip", "once"], { error: 'expected "skip" or "once"' })
    .default("skip")
    .describe(
      'Firings missed while no server ran: "skip" fires none of them, "once" fires one (the ' +
        "latest) when the server starts.",
    ),
  prompt: name()
    .refine((t) => scheduleTemplateProblem(t) === undefined, {
      error: (i) => scheduleTemplateProblem(i.input as string),
    })
    .describe(
      "The task's prompt: the operator's own text, with {{schedule.time}}, {{schedule.name}}… " +
        "(docs/triggers.md).",
    ),
  conversation: z
    .enum(["new", "same"], { error: 'expected "new" or "same"' })
    .default("new")
    .describe(
      '"new": each firing a conversation of its own; "same": every firing continues one ' +
        "conversation, the schedule's.",
    ),
  permissions: webhookSchema.shape.permissions,
  push: webhookSchema.shape.push,
  limits: webhookSchema.shape.limits,
  deliver: triggerDeliverSchema,
});

const triggerSchema = z.discriminatedUnion("kind", [webhookSchema, scheduleSchema], {
  error: 'expected "kind" to be "webhook" or "schedule"',
});

/** The triggers by name, without a default (a workspace's section: unset is none). */
export const triggerEntriesSchema = z
  .record(z.string().regex(WORKSPACE_NAME, { error: TRIGGER_NAME_ERROR }), triggerSchema, {
    error: (issue) =>
      issue.code === "invalid_key" ? TRIGGER_NAME_ERROR : "expected an object of triggers by name",
  })
  .describe(
    "Events that start tasks with no client calling, by name (docs/triggers.md): signed " +
      "webhooks at /hooks/<name> (/agents/<workspace>/hooks/<name> for a workspace). Each is a " +
      "caller of its own, trigger:<name>.",
  );

export const triggersSchema = triggerEntriesSchema.default({});

export type TriggersConfig = z.output<typeof triggersSchema>;
export type WebhookTrigger = z.output<typeof webhookSchema>;
export type ScheduleTrigger = z.output<typeof scheduleSchema>;
export type TriggerFilters = z.output<typeof filtersSchema>;
export type TriggerDeliver = WebhookTrigger["deliver"];

/**
 * `limits` with each trigger's own `limits` first in `limits.callers`, as the entry matching
 * `trigger:<name>`: the first matching entry applies, so the trigger's wins over a pattern. Pure.
 */
export function withTriggerLimits(limits: LimitsConfig, triggers: TriggersConfig): LimitsConfig {
  const own = Object.entries(triggers).flatMap(([triggerName, t]) =>
    t.limits === undefined ? [] : [{ match: `trigger:${triggerName}`, ...t.limits }],
  );
  return own.length === 0 ? limits : { ...limits, callers: [...own, ...limits.callers] };
}

/** The variables of the server's own secrets its triggers name, kept from Claude's environment. Pure. */
export function triggerSecretVariables(triggers: TriggersConfig): string[] {
  return Object.values(triggers).flatMap((t) => [
    ...(t.kind === "webhook" ? [t.secretEnv] : []),
    ...(t.push?.tokenEnv === undefined ? [] : [t.push.tokenEnv]),
    ...(t.kind === "webhook" && t.result !== undefined ? [t.result.forge.tokenEnv] : []),
  ]);
}

/** The triggers of one kind, by name, in the config's order. Pure. */
export function triggersOfKind<K extends TriggersConfig[string]["kind"]>(
  triggers: TriggersConfig,
  kind: K,
): [string, Extract<TriggersConfig[string], { kind: K }>][] {
  return Object.entries(triggers).filter(
    (e): e is [string, Extract<TriggersConfig[string], { kind: K }>] => e[1].kind === kind,
  );
}
