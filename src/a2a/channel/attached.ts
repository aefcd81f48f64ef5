/**
 * How a send learns which task it reached: the replaying handler leaves a callback in the call
 * context's state, and the task's channel calls it when that request's `execute()` attaches to
 * the task (a new task, or an answer to a parked one), with the task's last event number then.
 */
export const ATTACHED_STATE_KEY = "claude-a2a.onAttached";

export type OnAttached = (taskId: string, lastNumber: number) => void;

/** The callbacks a request's state holds, by the messageId of the send each waits for. */
export type AttachedCallbacks = Map<string, OnAttached>;

/** Leaves `callback` for the send of `messageId` (a context may carry several sends). */
export function awaitAttach(
  state: Map<string, unknown>,
  messageId: string,
  callback: OnAttached,
): () => void {
  let callbacks = state.get(ATTACHED_STATE_KEY) as AttachedCallbacks | undefined;
  if (callbacks === undefined) state.set(ATTACHED_STATE_KEY, (callbacks = new Map()));
  callbacks.set(messageId, callback);
  return () => {
    if (callbacks.get(messageId) === callback) callbacks.delete(messageId);
  };
}

/** Tells the send of `messageId` which task it reached, once. */
export function tellAttached(
  state: ReadonlyMap<string, unknown> | undefined,
  messageId: string | undefined,
  taskId: string,
  lastNumber: number,
): void {
  if (messageId === undefined) return;
  const callbacks = state?.get(ATTACHED_STATE_KEY) as AttachedCallbacks | undefined;
  const callback = callbacks?.get(messageId);
  if (callback === undefined) return;
  callbacks?.delete(messageId);
  callback(taskId, lastNumber);
}
