/**
 * Numbered events, replay from a cursor and idempotent sends (docs/reliability.md): the names a
 * client reads and sends, and the texts of the refusals. Held to docs/protocol.md's tables
 * (test/unit/contract/replay-readme.test.ts).
 */

/** `metadata.eventNumber` of every task event (1, 2, 3, … per task, no gaps); GetTask: the last. */
export const EVENT_NUMBER_KEY = "eventNumber";

/** The cursor as a request header (HTTP bindings) or gRPC metadata: the last number received. */
export const LAST_EVENT_ID_HEADER = "last-event-id";

/** The cursor in a `SendMessage` request's `metadata`, for a binding without headers. */
export const LAST_EVENT_ID_METADATA_KEY = "lastEventId";

/** A send's idempotency key as an HTTP header; without it, the message's `messageId` is the key. */
export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";

/** Where the request handler leaves the number of the event being written, for the SSE `id:`. */
export const SSE_EVENT_NUMBER_STATE_KEY = "claude-a2a.eventNumber";

export const REPLAY_TEXT = {
  badCursor: (value: string) =>
    `The cursor ${value.slice(0, 40)} is not an event number: send the last ` +
    `eventNumber you received (a whole number, 0 for the start).`,
  tooOld: (taskId: string, cursor: number, oldest: number | undefined) =>
    oldest === undefined
      ? `The events of task ${taskId} after ${cursor} are no longer kept (replay.retainMs after ` +
        `the task ended); no event is available: read its final state with GetTask.`
      : `The events of task ${taskId} after ${cursor} are no longer kept; the oldest available ` +
        `is ${oldest}: resume from just before it or later, or read the task with GetTask.`,
  ahead: (taskId: string, cursor: number, last: number) =>
    `Task ${taskId} has no event ${cursor} yet (its last is ${last}): send the last eventNumber you received.`,
  conflict: (key: string) =>
    `The idempotency key ${JSON.stringify(key.slice(0, 80))} was already used by another ` +
    `caller: choose a new messageId (or Idempotency-Key).`,
} as const;

/** Whether an error text is the idempotency conflict (HTTP+JSON answers it with 409). */
export const isIdempotencyConflict = (message: string): boolean =>
  message.startsWith("The idempotency key ") && message.includes("already used by another caller");
