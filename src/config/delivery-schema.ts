import { z } from "zod";
import { DELIVERY_TARGETS } from "../contract/delivery.js";
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

/** `claude.delivery.merge` (docs/delivery.md "Merge on approval"): how a yes merges. */
const mergeSchema = z
  .strictObject({
    how: z
      .enum(["fast-forward", "merge-commit"], {
        error: 'expected "fast-forward" or "merge-commit"',
      })
      .optional()
      .describe(
        'How a yes merges: "fast-forward" (the base gets the branch\'s commits as they are), ' +
          '"merge-commit" (always a merge commit). Unset: a fast-forward when the base has not ' +
          "moved, else a merge commit.",
      ),
    author: z
      .strictObject({ name: name(), email: name() })
      .optional()
      .describe("Who a merge commit is authored (and committed) by; default: claude-a2a."),
  })
  .describe("How a delivery with the target merge merges, once approved.");

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
      .describe("A review in a separate context: accepted and stored, not built yet."),
    target: target
      .default("branch")
      .describe(
        'Where a delivery ends unless its message says: "branch" (the conversation\'s ' +
          'branch, as today), "merge" (asks for approval, then merges into baseBranch). ' +
          '"push" and "pull-request" are accepted here but not built yet: a task asking for ' +
          "one is refused.",
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
    baseBranch: name()
      .regex(/^(?!-)[^\s~^:?*[\\]+$/, { error: "expected a branch name" })
      .optional()
      .describe(
        "The branch a push's pull request or a merge goes into; default: the branch checked " +
          "out in the workspace when the server started.",
      ),
    approvedBy: z
      .enum(["caller", "operator"], { error: 'expected "caller" or "operator"' })
      .default("caller")
      .describe(
        "Who may answer a merge's approval: the task's caller, or only an operator " +
          "(server.operators).",
      ),
    merge: mergeSchema.default({}),
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
