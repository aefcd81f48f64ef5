import { DELIVERY_TEXT } from "../../contract/delivery.js";
import { KIND } from "../../contract/kinds.js";
import { MERGE_TEXT, type MergeApprover, type MergeHow } from "../../contract/merge-approval.js";
import type { TargetOutcome, TargetStep, TargetStepContext } from "../target-step.js";
import {
  checkoutOf,
  commitOf,
  fastForwardCheckout,
  fetchBranch,
  hasLocalChanges,
  isAncestor,
  mergeCommit,
  mergeIntoWorktree,
  mergeTree,
  moveBranch,
  type MergeAuthor,
} from "./merge-git.js";
import { mergeMove } from "./merge-plan.js";

/** What a workspace's merges are made with (`claude.delivery`, docs/delivery.md). */
export interface MergeStepOptions {
  /** The workspace (`claude.cwd`): its repository holds the base branch. */
  readonly workspace: string;
  /** `claude.delivery.baseBranch`, else the branch checked out in the workspace at startup. */
  readonly baseBranch: () => Promise<string | undefined>;
  readonly how: MergeHow | undefined;
  readonly author: MergeAuthor | undefined;
  readonly approvedBy: MergeApprover;
}

/** A base that moves between the ask and the merge is asked about again, this many times. */
const ATTEMPTS = 3;

/**
 * Merge on approval (docs/delivery.md "Merge on approval"): the merge a yes would make is
 * worked out first (a fast-forward, or a merge commit whose tree merges cleanly), then asked
 * for; a yes makes it, outside the workspace's checkout, and moves the base branch guarded by
 * its old value. A base that moved and conflicts is merged into the conversation's worktree,
 * and Claude finishes it in a rework turn; a no keeps the branch as it is.
 */
export function mergeStep(o: MergeStepOptions): TargetStep {
  return {
    run: (ctx) =>
      merge(o, ctx).catch((err: unknown): TargetOutcome => {
        const why = err instanceof Error ? err.message : String(err);
        ctx.logger.error({ err }, "delivery: the merge failed");
        return failed(`the merge failed: ${why}`);
      }),
  };
}

async function merge(o: MergeStepOptions, ctx: TargetStepContext): Promise<TargetOutcome> {
  const into = await o.baseBranch();
  if (into === undefined) return failed(MERGE_TEXT.noBaseBranch);
  const ws = o.workspace;
  const { branch } = ctx.work;
  const fetched = await fetchBranch(ws, ctx.work.cwd, branch);
  let workMs = 0;
  try {
    const head = fetched.commit ?? ctx.work.headCommit;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      let started = Date.now();
      const intoCommit = await commitOf(ws, `refs/heads/${into}`);
      if (intoCommit === undefined) return failed(MERGE_TEXT.noSuchBase(into));
      const move = mergeMove(o.how, {
        headInBase: await isAncestor(ws, head, intoCommit),
        baseInHead: await isAncestor(ws, intoCommit, head),
      });
      if (move === "up_to_date") {
        const durationMs = workMs + Date.now() - started;
        return delivered({ outcome: "up_to_date", into, commit: intoCommit, durationMs });
      }
      if (move === "rebase") return rework(ctx, into, intoCommit);
      let tree: string | undefined;
      if (move === "merge-commit") {
        const merged = await mergeTree(ws, intoCommit, head);
        if (merged.kind === "conflicts") return rework(ctx, into, intoCommit);
        tree = merged.tree;
      }
      const blocked = await checkoutProblem(ws, into);
      if (blocked !== undefined) return failed(blocked);
      workMs += Date.now() - started;

      const answer = await ctx.ask({
        kind: KIND.mergeApproval,
        merge: { branch, headCommit: head, into, intoCommit, how: move },
        approvedBy: o.approvedBy,
        proof: ctx.proof,
      });
      switch (answer.kind) {
        case "gone":
          return failed(MERGE_TEXT.ended);
        case "no":
          return {
            kind: "declined",
            reason: answer.reason,
            record: { merge: { outcome: "declined", reason: answer.reason, by: answer.by } },
          };
        case "yes":
          break;
      }

      started = Date.now();
      const again = await checkoutProblem(ws, into);
      if (again !== undefined) return failed(again);
      const commit =
        tree === undefined
          ? head
          : await mergeCommit(
              ws,
              tree,
              { base: intoCommit, head },
              `Merge branch '${branch}' into ${into}`,
              o.author,
            );
      const inWorkspace = (await checkoutOf(ws, into)).kind === "workspace";
      const moved = inWorkspace
        ? await fastForwardCheckout(ws, intoCommit, commit)
        : await moveBranch(ws, into, intoCommit, commit, `claude-a2a: merge ${branch}`);
      workMs += Date.now() - started;
      if (moved) {
        ctx.progress(MERGE_TEXT.merged(branch, into, move), { step: "merge", into, commit });
        const record = { outcome: "merged", into, commit, how: move, durationMs: workMs };
        return delivered({ ...record, by: answer.by });
      }
      // The base moved between the ask and the merge: what was approved is not what a merge
      // would now make, so it is worked out and asked again.
    }
    return failed(MERGE_TEXT.keptMoving(into));
  } finally {
    await fetched.release();
  }
}

/** Why the base branch's checkout stops the merge: one elsewhere, or the workspace's unclean. */
async function checkoutProblem(ws: string, into: string): Promise<string | undefined> {
  const checkout = await checkoutOf(ws, into);
  switch (checkout.kind) {
    case "none":
      return undefined;
    case "elsewhere":
      return MERGE_TEXT.checkedOutElsewhere(into, checkout.path);
    case "workspace":
      return (await hasLocalChanges(ws)) ? MERGE_TEXT.dirtyCheckout(into) : undefined;
  }
}

/**
 * The base moved (and conflicts, or a fast-forward is required): it is merged into the
 * conversation's worktree, conflict markers and all, and Claude finishes it in a rework turn.
 */
async function rework(
  ctx: TargetStepContext,
  into: string,
  intoCommit: string,
): Promise<TargetOutcome> {
  const conflicts = await mergeIntoWorktree(ctx.work.cwd, intoCommit);
  ctx.progress(MERGE_TEXT.reworkStatus(into, conflicts.length), {
    step: "merge",
    into,
    intoCommit,
    conflicts,
  });
  return {
    kind: "rework",
    prompt: MERGE_TEXT.rework(into, intoCommit, conflicts),
    record: { merge: { outcome: "rebase", into, intoCommit, conflicts } },
  };
}

const delivered = (merge: Readonly<Record<string, unknown>>): TargetOutcome => ({
  kind: "delivered",
  record: { merge },
});

const failed = (why: string): TargetOutcome => ({
  kind: "failed",
  text: DELIVERY_TEXT.stepError(why),
  record: { merge: { outcome: "failed", reason: why } },
});
