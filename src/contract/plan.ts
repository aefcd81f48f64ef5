import { KIND } from "./kinds.js";

/**
 * Plan, then approve (docs/control.md "Plan"): a task created with `metadata.permissionMode:
 * "plan"` makes Claude plan without changing anything; its `ExitPlanMode` becomes an
 * input-required of kind `plan_approval`, carrying the plan as Markdown text and as this data part.
 */

/** The message metadata key naming a new task's permission mode. */
export const PERMISSION_MODE_KEY = "permissionMode";

/** The media type of the plan's text part. */
export const PLAN_MEDIA_TYPE = "text/markdown";

/** The data part of a `plan_approval` status. */
export interface PlanApprovalData {
  readonly kind: typeof KIND.planApproval;
  /** Claude's plan, Markdown (empty when it wrote none). */
  readonly plan: string;
}

export const planApprovalData = (plan: string): PlanApprovalData => ({
  kind: KIND.planApproval,
  plan,
});

const json = (value: unknown): string => JSON.stringify(value) ?? String(value);

/** What a client reads (the status text, the refusals) and Claude reads (a rejection). */
export const PLAN_TEXT = {
  /** The status text: the plan itself, or this when Claude wrote no plan file. */
  noPlan: "Claude has finished planning and asks to go ahead (it wrote no plan).",
  /** What Claude reads when the plan is not approved; it stays in plan mode. */
  rejected: (feedback: string | undefined) =>
    feedback
      ? `The user did not approve the plan and said: ${feedback}\nRevise the plan with this feedback, still without changing anything, then call ExitPlanMode again.`
      : "The user did not approve the plan. Revise it, still without changing anything, then call ExitPlanMode again.",
  // ---- refusals of a new task's metadata.permissionMode (InvalidParams, before any task exists) ----
  notAllowed: (asked: unknown, allowed: readonly string[]) =>
    `metadata.${PERMISSION_MODE_KEY} ${json(asked)} is not allowed on this server (claude.allowedPermissionModes); allowed: ${allowed.length === 0 ? "none" : allowed.map(json).join(", ")}.`,
  wider: (asked: string, workspace: string) =>
    `metadata.${PERMISSION_MODE_KEY} ${json(asked)} is wider than this workspace's permission mode (${json(workspace)}): a task may narrow it, never widen it.`,
  needsExtension: (uri: string) =>
    `metadata.${PERMISSION_MODE_KEY} is part of the control extension: activate it with the request header A2A-Extensions: ${uri}.`,
} as const;
