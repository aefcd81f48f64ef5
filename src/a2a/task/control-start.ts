import type { ControlRecord } from "../../contract/control.js";
import type { ConversationKey } from "../../identity/conversation.js";

/**
 * The types of a task's rewind or fork (docs/control.md): what its message asked, admitted
 * (routing/control-admission.ts), and what the server lends it (`TaskEnvironment.control`). A
 * leaf, so the environment and the task's collaborators import it without a cycle.
 */

/** What a new task's message asked of the control extension, admitted (routing/control-admission). */
export type ControlStart =
  | {
      readonly kind: "rewind";
      readonly taskId: string;
      readonly record: ControlRecord;
      readonly dryRun: boolean;
    }
  | {
      readonly kind: "fork";
      readonly taskId: string;
      readonly record: ControlRecord;
      /** The conversation of the task forked from. */
      readonly source: ConversationKey;
    };

/** Where a rewind or fork sets a conversation's next session to start. */
export interface RestartPlan {
  readonly resume: string | undefined;
  readonly resumeAt?: string;
  readonly fork?: boolean;
}

/** What the server lends rewind and fork (TaskEnvironment.control). */
export interface ControlEnvironment {
  /** The conversation's next session starts as `plan` says (its live one, idle, is closed). */
  restartAt(conversation: ConversationKey, plan: RestartPlan): Promise<void>;
  /**
   * Closes the conversation's idle process: the runtime records where the conversation ends
   * (which branch, after a rewind) lazily, and a resume of its transcript follows that record.
   */
  settle(conversation: ConversationKey): Promise<void>;
  /** The transcript of a session, as the runtime wrote it under the conversation's folder. */
  transcript(sessionId: string, conversation: ConversationKey): string;
  /** Makes a session's transcript resumable from another conversation's folder (worktrees). */
  shareTranscript(sessionId: string, from: ConversationKey, to: ConversationKey): Promise<void>;
}
