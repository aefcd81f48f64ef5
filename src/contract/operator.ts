import type { Message, Task } from "@a2a-js/sdk";

/**
 * The wire side of the operator role (docs/security.md "Operators"): the metadata keys by which an
 * operator sees whose a task is, and by which a task's owner learns who answered or canceled it.
 */

/** `task.metadata.owner`, in what an operator reads (GetTask, ListTasks): the task's caller scope. */
export const OWNER_KEY = "owner";

/**
 * `metadata.answeredBy`: the operator's name, on the `resumed` status its answer caused and on
 * the answering message itself (in the task's history). Only the server sets it.
 */
export const ANSWERED_BY_KEY = "answeredBy";

/** `metadata.canceledBy` of the `canceled` status of an operator's cancel: the operator's name. */
export const CANCELED_BY_KEY = "canceledBy";

/** The task as an operator reads it: `metadata.owner` names whose it is. Pure. */
export function withOwner<T extends Pick<Task, "metadata">>(task: T, owner: string): T {
  return { ...task, metadata: { ...task.metadata, [OWNER_KEY]: owner } };
}

/**
 * The answering message as the task's history keeps it: `metadata.answeredBy` names `operator`
 * when one answers for the task's owner, and is dropped from any other message (a client cannot
 * claim an operator answered). The same message when there is nothing to change. Pure.
 */
export function stampAnswer(message: Message, operator: string | undefined): Message {
  const metadata = message.metadata;
  if (operator === undefined) {
    if (metadata === undefined || !(ANSWERED_BY_KEY in metadata)) return message;
    const { [ANSWERED_BY_KEY]: _dropped, ...rest } = metadata;
    return { ...message, metadata: rest };
  }
  return { ...message, metadata: { ...metadata, [ANSWERED_BY_KEY]: operator } };
}
