import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import { EVENT_NUMBER_KEY } from "../contract/replay.js";
import { isTerminalState } from "../contract/task-states.js";

/**
 * How the terminal client follows a stream through a dropped connection (docs/reliability.md):
 * it resumes from the last event number it received, sending the same message again (the same
 * messageId, so the server starts nothing new) with that cursor.
 */

/** How many times in a row a stream is resumed before the client gives up. */
export const MAX_RESUMES = 5;

/** The number an event carries (`metadata.eventNumber`), if any. Pure. */
export function eventNumberOf(event: StreamResponse): number | undefined {
  const metadata: unknown = event.payload?.value.metadata;
  const n = (metadata as Record<string, unknown> | undefined)?.[EVENT_NUMBER_KEY];
  return typeof n === "number" && Number.isSafeInteger(n) ? n : undefined;
}

/** Whether a turn's stream is over after this event: a message, terminal or input-required. Pure. */
export function endsTurn(event: StreamResponse): boolean {
  const payload = event.payload;
  if (payload?.$case === "message") return true;
  if (payload?.$case !== "statusUpdate") return false;
  const state = payload.value.status?.state;
  return isTerminalState(state) || state === TaskState.TASK_STATE_INPUT_REQUIRED;
}

/**
 * Whether an error ending a stream is the connection (resume) or the server's answer (a
 * protocol error such as TaskNotFound or a 401: shown as it is). Pure.
 */
export function isDroppedConnection(err: unknown): boolean {
  const e = err as { name?: unknown; message?: unknown; transport?: unknown } | undefined;
  if (e?.name === "AbortError") return false;
  if (e?.transport !== undefined) return false; // the SDK's protocol errors name their binding
  const message = typeof e?.message === "string" ? e.message : "";
  if (/HTTP error|Status: \d{3}|\b40\d\b/.test(message)) return false;
  return /terminated|fetch failed|socket|ECONNRESET|EPIPE|other side closed|network|aborted|premature/i.test(
    message,
  );
}
