import type { MergeHow } from "../../contract/merge-approval.js";

/**
 * How the branch goes into its base (`claude.delivery.merge.how`), decided from where the base
 * is now. Pure.
 *
 * - `up_to_date`: the base holds the branch's head already: nothing to merge.
 * - `fast-forward` / `merge-commit`: the merge a yes makes (a merge commit's tree may still
 *   conflict: merge-tree says).
 * - `rebase`: a fast-forward is asked for but the base moved: the branch must take the base in
 *   first (a rework turn), after which it fast-forwards.
 */
export type MergeMove = "up_to_date" | MergeHow | "rebase";

export function mergeMove(
  configured: MergeHow | undefined,
  where: { readonly headInBase: boolean; readonly baseInHead: boolean },
): MergeMove {
  if (where.headInBase) return "up_to_date";
  switch (configured) {
    case undefined:
      return where.baseInHead ? "fast-forward" : "merge-commit";
    case "fast-forward":
      return where.baseInHead ? "fast-forward" : "rebase";
    case "merge-commit":
      return "merge-commit";
  }
}
