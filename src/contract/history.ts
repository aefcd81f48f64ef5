import { Role, type Message, type Task } from "@a2a-js/sdk";
import { KIND, type StatusKind } from "./kinds.js";

/**
 * Whether a message of each kind stays in a task's `history`. History holds what was exchanged
 * with the client: its messages, the agent's questions (the input-required prompts), its answer
 * (`result`), the texts of how the task ended, and `session_reset`, which changes what the answer
 * means (Claude forgot the conversation: a blocking client, which sees no stream, must learn it).
 * Progress (a tool call, `resumed`, queue and background notices) is status only: the stream and the task's `status` carry it,
 * and it would push the client's own messages out of a `historyLength` window. Typed over every
 * status kind, so a new kind is classified when it is added.
 */
const KEPT: Readonly<Record<StatusKind, boolean>> = {
  [KIND.toolUse]: false,
  [KIND.toolResult]: false,
  [KIND.result]: true,
  [KIND.askUserQuestion]: true,
  [KIND.permissionRequest]: true,
  [KIND.resumed]: false,
  [KIND.queued]: false,
  [KIND.serverRestarted]: true,
  [KIND.sessionReset]: true,
  [KIND.backgroundWait]: false,
  [KIND.backgroundTask]: false,
  [KIND.backgroundStopped]: false,
  [KIND.backgroundTimeout]: false,
  [KIND.wakeInterrupted]: false,
  [KIND.budgetReached]: true,
  // The client's own steering message (its role is the client's: kept whatever this says).
  [KIND.steered]: true,
  // Claude's plan, asked for approval: the agent's question, like a permission request.
  [KIND.planApproval]: true,
  // Where the conversation went back to, or came from: what Claude knows changed.
  [KIND.rewound]: true,
  [KIND.forked]: true,
  // A peer's progress is progress; its question, passed up to our caller, is a prompt.
  [KIND.delegated]: false,
  [KIND.delegatedInput]: true,
  // A round of delivery checks is progress; how the delivery ended is the task's end.
  [KIND.delivery]: false,
  // Asking to merge the delivered work: a question to the caller, like a plan approval.
  [KIND.mergeApproval]: true,
};

const isStatusKind = (kind: unknown): kind is StatusKind =>
  typeof kind === "string" && Object.hasOwn(KEPT, kind);

/**
 * True if `message` belongs in a task's history. A client's message always does, whatever its
 * metadata says; an agent's message unless its kind is progress (an unmarked one is a task's
 * intro or the text of its end). Pure.
 */
export function inHistory(message: Message): boolean {
  if (message.role === Role.ROLE_USER) return true;
  const kind: unknown = message.metadata?.kind;
  return !isStatusKind(kind) || KEPT[kind];
}

/** The task with the progress left out of its history (the same task if there is none). Pure. */
export function keepExchanged<T extends Pick<Task, "history">>(task: T): T {
  if (task.history.every(inHistory)) return task;
  return { ...task, history: task.history.filter(inHistory) };
}
