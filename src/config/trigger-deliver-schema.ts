import { z } from "zod";
import { DELIVERY_TARGETS } from "../contract/delivery.js";
import { names } from "./schema-parts.js";

const deliverTarget = z.enum(DELIVERY_TARGETS, {
  error: `expected one of ${DELIVERY_TARGETS.join(", ")}`,
});

/**
 * What a caller may put in a new task's `metadata.deliver` (docs/delivery.md), with the same
 * shapes; the workspace's `claude.delivery` decides at startup whether it may (policy.ts).
 */
export const triggerDeliverSchema = z
  .union(
    [
      z.literal(true),
      deliverTarget,
      z.strictObject({
        target: deliverTarget.optional(),
        checks: names()
          .optional()
          .describe("Names of claude.delivery.checks to run (never a command). Unset: all."),
        review: z.boolean({ error: "expected true or false" }).optional(),
        maxRounds: z
          .int({ error: "expected a whole number" })
          .min(0, { error: "expected 0 or more" })
          .optional()
          .describe("Fix rounds, at most claude.delivery.maxRounds. Unset: that."),
      }),
    ],
    {
      error:
        'expected true, a target ("branch"…) or { target, checks, review, maxRounds } as ' +
        "metadata.deliver takes",
    },
  )
  .optional()
  .describe(
    "A delivery for each of its tasks, sent as the message's metadata.deliver with the control " +
      "extension (docs/delivery.md): checks from claude.delivery run until green. Needs " +
      'claude.isolation "worktree" and claude.delivery. Unset: none.',
  );
