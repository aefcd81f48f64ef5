import { KIND } from "./kinds.js";

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
  readonly data: AskUserQuestionData | PermissionRequestData;
}

/** `artifact.metadata` of a `file` artifact. */
export interface FileArtifactMetadata {
  readonly kind: typeof KIND.file;
  readonly path: string;
  readonly tool: string;
  readonly operation: "created" | "modified";
  readonly mediaType: string;
  readonly size: number;
  readonly truncated?: true;
}

/** `metadata.tasks` of a `background_wait` status. */
export type BackgroundWaitTasks = readonly { taskId: string; description: string }[];
