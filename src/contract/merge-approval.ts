import type { ProofOfWork } from "./delivery.js";
import type { KIND } from "./kinds.js";

/**
 * Merge on approval (docs/delivery.md "Merge"): a delivery with the target `merge`, green and
 * reviewed, asks before it changes the workspace's branch. The ask is an input-required status of
 * kind `merge_approval`, carrying a Markdown summary (a `text/markdown` part) and this data part.
 * It is answered as a permission is (docs/protocol.md "Answering"): a clear yes, or
 * `{ kind: "permission_response", decision: "allow" }`, merges; anything else (a "deny" with its
 * `reason`, a no, any other text) declines: the task completes with the branch kept and the
 * reason recorded. Both clients (terminal, console) read this shape.
 */

/** How the merge would be made. */
export type MergeHow = "fast-forward" | "merge-commit";

/** Who may answer: the task's caller (default), or only an operator. */
export type MergeApprover = "caller" | "operator";

/** The data part of a `merge_approval` status. */
export interface MergeApprovalData {
  readonly kind: typeof KIND.mergeApproval;
  /** The merge that a yes would make. */
  readonly merge: {
    /** The conversation's branch, and its head commit to merge. */
    readonly branch: string;
    readonly headCommit: string;
    /** The base branch it goes into, and that branch's commit now. */
    readonly into: string;
    readonly intoCommit: string;
    readonly how: MergeHow;
  };
  readonly approvedBy: MergeApprover;
  /** The delivery's proof of work so far (checks, review). */
  readonly proof: ProofOfWork;
}

/** The media type of the summary's text part. */
export const MERGE_SUMMARY_MEDIA_TYPE = "text/markdown";

/** The summary's text: what a yes would do (the proof of work is in the data part). */
export const MERGE_TEXT = {
  /** Why a merge cannot be made (the task fails with `Delivery failed: <it>.`, the branch kept). */
  noBaseBranch:
    "the merge has no base branch: the workspace was on a detached HEAD when the server " +
    "started; set claude.delivery.baseBranch",
  noSuchBase: (into: string) =>
    `the merge's base branch ${into} does not exist in the workspace's repository`,
  dirtyCheckout: (into: string) =>
    `the base branch ${into} is checked out in the workspace with uncommitted changes, which a ` +
    "merge would leave half-merged: commit or stash them; the work stays on its branch",
  checkedOutElsewhere: (into: string, path: string) =>
    `the base branch ${into} is checked out in another worktree (${path}), which the merge ` +
    "would leave behind its branch; the work stays on its branch",
  keptMoving: (into: string) =>
    `the base branch ${into} kept moving while the merge was made; the work stays on its branch`,
  ended: "the task ended before its merge was approved",
  /** The rework turn's prompt: the base moved, and Claude finishes merging it in. */
  rework: (into: string, intoCommit: string, conflicts: readonly string[]) =>
    `The base branch \`${into}\` moved since this conversation's branch began (it is now at ` +
    `${intoCommit.slice(0, 12)}), so the work cannot go into it as it is. The server has merged ` +
    `\`${into}\` into this working directory` +
    (conflicts.length === 0
      ? ", without conflicts: check that the result still does what this task asked."
      : `, and it conflicts in: ${conflicts.join(", ")}. Resolve the conflict markers ` +
        "(<<<<<<<, =======, >>>>>>>) in those files, keeping what both sides meant.") +
    " When you finish, the server runs the checks again, then asks again to merge.",
  /** The `delivery` status of a rework: the stream says why Claude has another turn. */
  reworkStatus: (into: string, conflicts: number) =>
    `Merge: the base branch ${into} moved` +
    (conflicts === 0 ? "" : ` and ${conflicts} file(s) conflict`) +
    "; back to Claude to merge it in.",
  merged: (branch: string, into: string, how: MergeHow) =>
    `Merge: \`${branch}\` merged into \`${into}\` (${how}).`,
  /** The reason recorded for a bare "no". */
  noReason: "no reason given",
  /** The refusal of an answer from anyone but an operator, under `approvedBy: "operator"`. */
  operatorOnly:
    "only an operator may answer this merge approval (claude.delivery.approvedBy is " +
    '"operator"); the task still waits for one',
  summary: (m: MergeApprovalData["merge"]) =>
    `Merge \`${m.branch}\` (${m.headCommit.slice(0, 12)}) into \`${m.into}\` ` +
    `(${m.intoCommit.slice(0, 12)}), ${m.how === "fast-forward" ? "a fast-forward" : "with a merge commit"}?`,
} as const;
