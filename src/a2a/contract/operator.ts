import type { Task } from "@a2a-js/sdk";

/**
 * The wire side of the operator role (README "Operators"): the metadata keys by which an
 * operator sees whose a task is, and by which a task's owner learns who answered or canceled it.
 */

/** `task.metadata.owner`, in what an operator reads (GetTask, ListTasks): the task's caller scope. */
export const OWNER_KEY = "owner";

/** `metadata.answeredBy` of the `resumed` status an operator's answer caused: the operator's name. */
export const ANSWERED_BY_KEY = "answeredBy";

/** `metadata.canceledBy` of the `canceled` status of an operator's cancel: the operator's name. */
export const CANCELED_BY_KEY = "canceledBy";

/** The task as an operator reads it: `metadata.owner` names whose it is. Pure. */
export function withOwner<T extends Pick<Task, "metadata">>(task: T, owner: string): T {
  return { ...task, metadata: { ...task.metadata, [OWNER_KEY]: owner } };
}
