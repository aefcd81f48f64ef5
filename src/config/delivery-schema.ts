import { z } from "zod";
import { DELIVERY_TARGETS } from "../contract/delivery.js";
import { SEVERITIES } from "../contract/review.js";
import { forgeSchema, remoteSchema } from "./forge-schema.js";
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

/** The keys of the targets `push` and `pull-request` (docs/delivery.md "Push"). */
const pushKeys = {
  remote: remoteSchema
    .optional()
    .describe(
      'Where "push" and "pull-request" push the conversation\'s branch, with the server\'s ' +
        "token (docs/forges.md). Required when allowedTargets has one of them.",
    ),
  forge: forgeSchema
    .optional()
    .describe(
      'Where "pull-request" opens (or updates) the pull or merge request of the branch ' +
        "(docs/forges.md). Required when allowedTargets has it.",
    ),
  baseBranch: name()
    .regex(/^(?!-)[^\s~^:?*[\\]+$/, { error: "expected a branch name" })
    .optional()
    .describe(
      "The branch a pull request (or a merge) goes into. Unset: the branch checked out in " +
        "the workspace when the server started.",
    ),
};

/** `push` and `pull-request` need a remote, `pull-request` a forge: refused at startup. */
function needsRemoteAndForge(
  d: { allowedTargets: readonly string[]; remote?: unknown; forge?: unknown },
  ctx: z.RefinementCtx,
): void {
  for (const t of ["push", "pull-request"]) {
    if (d.allowedTargets.includes(t) && d.remote === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["remote"],
        message: `claude.delivery.remote is required: allowedTargets has "${t}", which pushes there`,
      });
      break;
    }
  }
  if (d.allowedTargets.includes("pull-request") && d.forge === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["forge"],
      message:
        'claude.delivery.forge is required: allowedTargets has "pull-request", which opens it there',
    });
  }
}

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
          'branch), "push" (it pushed to claude.delivery.remote), "pull-request" (pushed, and ' +
          'a pull or merge request opened on claude.delivery.forge) or "merge" (asks for ' +
          "approval, then merges into baseBranch).",
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
    ...pushKeys,
    approvedBy: z
      .enum(["caller", "operator"], { error: 'expected "caller" or "operator"' })
      .default("caller")
      .describe(
        "Who may answer a merge's approval: the task's caller, or only an operator " +
          "(server.operators).",
      ),
    merge: mergeSchema.default({}),
  })
  .superRefine(needsRemoteAndForge)
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

/**
 * The variables of a delivery's remote and forge tokens: the server's own secrets, kept from
 * Claude's environment like those of `secretVariables` (security-schema.ts). Pure.
 */
export function deliverySecretVariables(delivery: DeliveryConfig | undefined): string[] {
  return [delivery?.remote?.tokenEnv, delivery?.forge?.tokenEnv].filter(
    (v): v is string => v !== undefined,
  );
}
