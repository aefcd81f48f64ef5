import type { PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import { MERGE_TEXT, type MergeApprovalData } from "../../contract/merge-approval.js";
import { mayAnswerMerge } from "../../delivery/merge/approval.js";
import type { ApprovalAnswer } from "../../delivery/target-step.js";
import { MERGE_APPROVAL_TOOL, type InputRequest } from "../interaction/answers.js";

/**
 * A delivery's merge approval as a task's prompt (docs/delivery.md "Merge on approval"): the
 * server's own ask, queued and shown as a tool's prompt is (input-required, kind
 * `merge_approval`, the input timeout), answered by an ordinary message on the task.
 */

/** Why the answering caller may not answer `request`; undefined when it may. Pure. */
export function answerRefusal(
  request: InputRequest,
  operator: string | undefined,
): string | undefined {
  if (request.kind !== "merge") return undefined;
  return mayAnswerMerge(request.data.approvedBy, operator) ? undefined : MERGE_TEXT.operatorOnly;
}

/** The prompt that asks for `data`'s merge. Pure. */
export const mergeApprovalRequest = (data: MergeApprovalData): InputRequest => ({
  kind: "merge",
  toolName: MERGE_APPROVAL_TOOL,
  input: {},
  data,
});

/**
 * What the settled prompt says: a yes only from an allow (a clear yes); any other answer is a
 * no with its reason; nothing, when the task ended first. Pure.
 */
export function approvalAnswer(
  result: PermissionResult,
  operator: string | undefined,
  ended: boolean,
): ApprovalAnswer {
  if (ended) return { kind: "gone" };
  const by = operator ?? "caller";
  if (result.behavior === "allow") return { kind: "yes", by };
  const reason = result.message.trim();
  return { kind: "no", reason: reason === "" ? MERGE_TEXT.noReason : reason, by };
}

/** The `ask` of a delivery's target step, over the task's prompts. */
export function approvalAsk(
  serverAsk: (
    request: InputRequest,
  ) => Promise<{ result: PermissionResult; operator: string | undefined }>,
  ended: () => boolean,
): (data: MergeApprovalData) => Promise<ApprovalAnswer> {
  return async (data) => {
    const { result, operator } = await serverAsk(mergeApprovalRequest(data));
    return approvalAnswer(result, operator, ended());
  };
}
