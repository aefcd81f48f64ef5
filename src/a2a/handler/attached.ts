/**
 * How a send learns which task it reached: the replaying handler leaves a callback in the call
 * context's state, and the task's channel calls it when that request's `execute()` attaches to
 * the task (a new task, or an answer to a parked one), with the task's last event number then.
 */
export const ATTACHED_STATE_KEY = "claude-a2a.onAttached";

export type OnAttached = (taskId: string, lastNumber: number) => void;

/** The callback a request's state holds, if any. */
export function onAttachedOf(state: ReadonlyMap<string, unknown> | undefined): OnAttached | undefined {
  const value = state?.get(ATTACHED_STATE_KEY);
  return typeof value === "function" ? (value as OnAttached) : undefined;
}
