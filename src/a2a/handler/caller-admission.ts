import type { Message } from "@a2a-js/sdk";
import type { ServerCallContext } from "@a2a-js/sdk/server";
import { REFUSAL_STATE_KEY } from "../../contract/limits.js";
import { ownerOf } from "../../identity/conversation.js";
import type { AdmissionResult } from "../../limits/caller-limits.js";
import { CallerLimitError } from "./limit-error.js";

/** Per-caller limits, as the guard asks them before a new task exists. */
export interface NewTaskLimits {
  /** Admits a new task of `owner` for the message `messageId`, or says which limit refuses it. */
  admit(owner: string, messageId: string): AdmissionResult;
}

/**
 * A message that will create a task (it names none) is counted against its caller's limits, or
 * refused by one of them (`CallerLimitError`, which the binding answers in its own shape: REST
 * 429 and Retry-After, JSON-RPC -32029). The admission holds its place until the task exists or
 * the request ends: the caller releases it. Undefined when nothing was counted.
 */
export function admitNewTask(
  limits: NewTaskLimits | undefined,
  message: Message | undefined,
  context: ServerCallContext,
): { release(): void } | undefined {
  if (limits === undefined || message === undefined || message.taskId) return undefined;
  const owner = ownerOf(context);
  const result = limits.admit(owner, message.messageId);
  if (result.ok) return result.admission;
  const error = new CallerLimitError(owner, result.reason, result.at);
  context.state.set(REFUSAL_STATE_KEY, error.info);
  throw error;
}
