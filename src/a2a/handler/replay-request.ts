import type { Message } from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import type { ServerCallContext } from "@a2a-js/sdk/server";
import { STATE_HEADERS_KEY } from "@a2a-js/sdk/server";
import { parseCursor } from "../../store/replay-log.js";
import {
  EVENT_NUMBER_KEY,
  IDEMPOTENCY_KEY_HEADER,
  LAST_EVENT_ID_HEADER,
  LAST_EVENT_ID_METADATA_KEY,
  REPLAY_TEXT,
} from "../../contract/replay.js";

/** The longest idempotency key taken (a messageId or an `Idempotency-Key`). */
const MAX_KEY_CHARS = 256;

type Headers = Record<string, string | string[] | undefined>;

/** One header of the request (HTTP headers and gRPC metadata alike, by lower-case name). */
export function headerOf(context: ServerCallContext, name: string): string | undefined {
  const headers = context.state.get(STATE_HEADERS_KEY) as Headers | undefined;
  const value = headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The request's cursor: the `Last-Event-ID` header (gRPC: `last-event-id` metadata), else the
 * request's `metadata.lastEventId`. Undefined when none is given; InvalidParams when it is not a
 * whole number.
 */
export function cursorOf(
  context: ServerCallContext,
  metadata: Record<string, unknown> | undefined,
): number | undefined {
  const raw: unknown =
    headerOf(context, LAST_EVENT_ID_HEADER) ?? metadata?.[LAST_EVENT_ID_METADATA_KEY];
  if (raw === undefined || raw === "") return undefined;
  const cursor = parseCursor(raw);
  if (cursor === undefined) {
    throw new RequestMalformedError(REPLAY_TEXT.badCursor(JSON.stringify(raw) ?? ""));
  }
  return cursor;
}

/** A send's idempotency key: the `Idempotency-Key` header, else its message's `messageId`. */
export function idempotencyKeyOf(
  context: ServerCallContext,
  message: Message | undefined,
): string | undefined {
  const key = headerOf(context, IDEMPOTENCY_KEY_HEADER)?.trim() || message?.messageId;
  if (key === undefined || key === "") return undefined;
  if (key.length > MAX_KEY_CHARS) {
    throw new RequestMalformedError(
      `The idempotency key is ${key.length} characters long; at most ${MAX_KEY_CHARS} are taken.`,
    );
  }
  return key;
}

/** The `eventNumber` of a metadata map (a stored task's: the last event it reflects). */
export function numberInMetadata(
  metadata: Record<string, unknown> | undefined,
): number | undefined {
  const n = metadata?.[EVENT_NUMBER_KEY];
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
