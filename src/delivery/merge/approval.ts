import type { MergeApprover } from "../../contract/merge-approval.js";

/**
 * Who may answer a merge's approval (docs/delivery.md "Merge on approval"): under `"caller"`,
 * whoever may answer the task at all (its caller, or an operator acting for it); under
 * `"operator"`, only a caller with the operator role (`server.operators`), so the agent that
 * asked for the merge cannot approve it itself. `operator`: the answering caller's name when it
 * has the role. Pure.
 */
export function mayAnswerMerge(approvedBy: MergeApprover, operator: string | undefined): boolean {
  switch (approvedBy) {
    case "caller":
      return true;
    case "operator":
      return operator !== undefined;
  }
}
