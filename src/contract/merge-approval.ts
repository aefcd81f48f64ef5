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
  summary: (m: MergeApprovalData["merge"]) =>
    `Merge \`${m.branch}\` (${m.headCommit.slice(0, 12)}) into \`${m.into}\` ` +
    `(${m.intoCommit.slice(0, 12)}), ${m.how === "fast-forward" ? "a fast-forward" : "with a merge commit"}?`,
} as const;
