import type { AnswerCorrector } from "./answer-correctors.js";
import { jsonRpcErrorAnswer, restErrorAnswer } from "./error-answers.js";
import { jsonRpcGenerationAnswer, restGenerationAnswer } from "./generation-answers.js";
import { jsonRpcLimitAnswer, restLimitAnswer } from "./limit-answers.js";
import { restContentTypeAnswer } from "./rest-errors.js";
import { jsonRpcSseError, sseEventId, type SseCorrector } from "./sse-correctors.js";

/**
 * What each binding corrects in the SDK's JSON answers, in the order the corrections run
 * (`correctJsonAnswers`, a2a-routes.ts). A correction that names an error by its code or status
 * goes before one that changes them.
 */
export const JSONRPC_ANSWERS: readonly AnswerCorrector[] = [
  // v1.1's generation mismatch: -32010, not the UnsupportedOperation it was thrown as.
  jsonRpcGenerationAnswer,
  // A per-caller limit's refusal: -32029 with its ErrorInfo, not the SDK's internal error…
  jsonRpcLimitAnswer,
  // …which this would hide: the request's own id, an internal error's text hidden.
  jsonRpcErrorAnswer,
];

export const REST_ANSWERS: readonly AnswerCorrector[] = [
  // A per-caller limit's refusal: 429 (and Retry-After), not the SDK's 500…
  restLimitAnswer,
  // …which this would hide: a 5xx answer's text hidden.
  restErrorAnswer,
  // v1.1's generation mismatch: 409 ABORTED.
  restGenerationAnswer,
  // ContentTypeNotSupported: 415; TaskNotCancelable and an idempotency conflict: 409.
  restContentTypeAnswer,
];

/** What each binding corrects in the SSE chunks it writes (`correctSseChunks`), in order. */
export const JSONRPC_SSE: readonly SseCorrector[] = [
  // A stream that fails after it opened: its error event corrected as a JSON answer is.
  jsonRpcSseError,
  // Each event's number as its `id:` (an error event gets none).
  sseEventId,
];

export const REST_SSE: readonly SseCorrector[] = [sseEventId];
