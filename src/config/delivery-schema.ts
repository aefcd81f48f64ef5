import { z } from "zod";
import { DELIVERY_TARGETS } from "../contract/delivery.js";
import { SEVERITIES } from "../contract/review.js";
import { intBetween, name, positiveInt } from "./schema-parts.js";

/**
 * `claude.delivery` (docs/delivery.md): the checks a delivered task must pass, and what a task's
 * `metadata.deliver` may ask. The commands live here only: a caller names checks, never runs its
 * own.
 */
const checkSchema = z.strictObject({
  name: name()
    .regex(/^[A-Za-z0-9._-]+$/, { error: "expected a name of letters, digits, '.', '_' or '-'" })
    .describe("The check's name, as a message's metadata.deliver.checks names it."),
  command: name().describe(
    "A shell command (/bin/sh -c) run in the conversation's worktree; exit code 0 is green.",
  ),
  timeoutSeconds: positiveInt()
    .default(600)
    .describe("Longest it may run (s); past it, it is killed and counts as failed."),
});

const target = z.enum(DELIVERY_TARGETS, {
  error: `expected one of ${DELIVERY_TARGETS.join(", ")}`,
});

export const deliverySchema = z
  .strictObject({
    checks: z
      .array(checkSchema)
      .default([])
      .describe("The checks a delivery runs, in order, when the task's own turn ends."),
    review: z
      .boolean()
      .default(false)
      .describe(
        "A review in a separate context once the checks are green: a read-only Claude Code " +
          "session reads the diff and answers with findings (a message may ask with " +
          "metadata.deliver.review).",
      ),
    reviewBlocking: z
      .enum(SEVERITIES, { error: `expected one of ${SEVERITIES.join(", ")}` })
      .default("major")
      .describe(
        "Findings of the review at or above this severity (blocker, major, minor, nit) go " +
          "back to Claude as a fix round; the others are recorded only.",
      ),
    reviewRubric: name()
      .optional()
      .describe(
        "What the reviewer checks when the repository has no REVIEW.md at its root (that " +
          "file wins): see docs/delivery.md for the built-in one. Default: a built-in rubric.",
      ),
    target: target
      .default("branch")
      .describe(
        'Where a delivery ends unless its message says: "branch" (the conversation\'s ' +
          'branch, as today). "push", "pull-request" and "merge" are accepted here but not ' +
          "built yet: a task asking for one is refused.",
      ),
    allowedTargets: z
      .array(target)
      .default(["branch"])
      .describe("The targets a message's metadata.deliver may ask for."),
    maxRounds: intBetween(0, 20)
      .default(3)
      .describe(
        "Fix rounds allowed: a red check goes back to Claude this many times at most; a " +
          "message may lower it, never raise it.",
      ),
  })
  .refine((d) => d.allowedTargets.includes(d.target), {
    error: "claude.delivery.target must be one of claude.delivery.allowedTargets",
  })
  .refine((d) => new Set(d.checks.map((c) => c.name)).size === d.checks.length, {
    error: "claude.delivery.checks: each check needs a name of its own",
  })
  .describe(
    "Deliveries (docs/delivery.md): checks run until green after a task that asks with " +
      'metadata.deliver (the control extension). Needs claude.isolation "worktree".',
  );

export type DeliveryConfig = z.infer<typeof deliverySchema>;
export type DeliveryCheckConfig = DeliveryConfig["checks"][number];
