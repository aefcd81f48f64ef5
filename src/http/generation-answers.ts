import { GENERATION_MISMATCH, isGenerationMismatch } from "../contract/generations.js";
import { isRecord } from "../common/json.js";
import { errorOf, withError, type AnswerCorrector } from "./answer-correctors.js";

/** The ErrorInfo details of an error body with their reason made v1.1's. */
function withReason(details: unknown): unknown {
  if (!Array.isArray(details)) return details;
  return (details as unknown[]).map((d) =>
    isRecord(d) ? { ...d, reason: GENERATION_MISMATCH.reason } : d,
  );
}

/**
 * v1.1's TaskGenerationMismatchError on JSON-RPC: code -32010 and its reason, where the SDK, which
 * knows no such error, answers the UnsupportedOperation it was thrown as (-32004).
 */
export const jsonRpcGenerationAnswer: AnswerCorrector = (answer) => {
  const error = errorOf(answer.body);
  if (error === undefined || !isGenerationMismatch(error.message)) return answer;
  return withError(answer, {
    ...error,
    code: GENERATION_MISMATCH.jsonRpcCode,
    data: withReason(error.data),
  });
};

/** The same on HTTP+JSON: 409 `ABORTED`, where the SDK answers 400 `FAILED_PRECONDITION`. */
export const restGenerationAnswer: AnswerCorrector = (answer) => {
  const error = errorOf(answer.body);
  if (error === undefined || !isGenerationMismatch(error.message)) return answer;
  const corrected = withError(answer, {
    ...error,
    code: GENERATION_MISMATCH.httpStatus,
    status: GENERATION_MISMATCH.restStatus,
    details: withReason(error.details),
  });
  return { ...corrected, status: GENERATION_MISMATCH.httpStatus };
};
