import { isIdempotencyConflict } from "../contract/replay.js";
import { HTTP_STATUS } from "../contract/wire-codes.js";
import { errorOf, withError, type AnswerCorrector } from "./answer-correctors.js";

/** `reason` of the ErrorInfo the SDK puts in a ContentTypeNotSupported error body. */
const CONTENT_TYPE_NOT_SUPPORTED = "CONTENT_TYPE_NOT_SUPPORTED";
/** `reason` of TaskNotCancelable's ErrorInfo: HTTP 409 Conflict (A2A §5.4), not the SDK's 400. */
const TASK_NOT_CANCELABLE = "TASK_NOT_CANCELABLE";

const { BAD_REQUEST, CONFLICT, UNSUPPORTED_MEDIA_TYPE } = HTTP_STATUS;

interface RestErrorBody {
  error: { code: number; details?: unknown };
}

function hasReason(body: unknown, reason: string): body is RestErrorBody {
  const error = (body as { error?: { details?: unknown } } | null)?.error;
  if (typeof error !== "object" || error === null || !Array.isArray(error.details)) return false;
  return error.details.some((d) => (d as { reason?: unknown } | null)?.reason === reason);
}

const isContentTypeError = (body: unknown) => hasReason(body, CONTENT_TYPE_NOT_SUPPORTED);

/** A refusal HTTP+JSON answers 409: TaskNotCancelable, or an idempotency key of another caller. */
function isConflict(body: unknown): body is RestErrorBody {
  if (hasReason(body, TASK_NOT_CANCELABLE)) return true;
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === "string" && isIdempotencyConflict(message);
}

/**
 * The REST (HTTP+JSON) binding answers ContentTypeNotSupported with HTTP 415, as the spec's
 * error-code mapping says. Corrects @a2a-js/sdk 1.3, whose `restHandler` sends it as 400, both
 * for a request `Content-Type` other than `application/json` / `application/a2a+json` (its
 * content-type guard) and for a message part the agent does not accept (`REST_ERROR_HTTP_STATUS`).
 * The body keeps the SDK's `google.rpc.Status` shape; its `code` becomes 415 too. A conflict
 * (`isConflict`) answers 409 the same way.
 */
export const restContentTypeAnswer: AnswerCorrector = (answer) => {
  if (answer.status !== BAD_REQUEST) return answer;
  const body = answer.body;
  const status = isContentTypeError(body)
    ? UNSUPPORTED_MEDIA_TYPE
    : isConflict(body)
      ? CONFLICT
      : undefined;
  const error = errorOf(body);
  if (status === undefined || error === undefined) return answer;
  return { ...withError(answer, { ...error, code: status }), status };
};
