import type { MergeApprovalData } from "./merge-approval.js";
import type { DelegatedInputData } from "./delegation.js";
import { KIND } from "./kinds.js";
import type { PlanApprovalData } from "./plan.js";

/**
 * The shapes of the data parts and metadata this server documents (docs/protocol.md "Interactive tasks",
 * "Event stream contract"): what a client may parse, defined once.
 */

/** One question of AskUserQuestion, as the runtime asks it and the client receives it. */
export interface Question {
  question: string;
  header?: string;
  options?: { label: string; description?: string }[];
  multiSelect?: boolean;
}

/** The data part of an `ask_user_question` status. */
export interface AskUserQuestionData {
  readonly kind: typeof KIND.askUserQuestion;
  readonly questions: readonly Question[];
}

/** The data part of a `permission_request` status. */
export interface PermissionRequestData {
  readonly kind: typeof KIND.permissionRequest;
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  readonly title: string | undefined;
  readonly decisionReason: string | undefined;
}

export const askUserQuestionData = (questions: readonly Question[]): AskUserQuestionData => ({
  kind: KIND.askUserQuestion,
  questions,
});

export const permissionRequestData = (
  p: Omit<PermissionRequestData, "kind">,
): PermissionRequestData => ({
  kind: KIND.permissionRequest,
  toolName: p.toolName,
  input: p.input,
  title: p.title,
  decisionReason: p.decisionReason,
});

/** An input-required status message: the bare prompt as text, everything else as data. */
export interface InputRequestContent {
  readonly text: string;
  /** The text part's media type (unset: text/plain); a plan is text/markdown. */
  readonly mediaType?: string;
  readonly data:
    | AskUserQuestionData
    | PermissionRequestData
    | PlanApprovalData
    | DelegatedInputData
    | MergeApprovalData;
}
