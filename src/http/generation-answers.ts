import type { RequestHandler } from "express";
import { GENERATION_MISMATCH, isGenerationMismatch } from "../contract/generations.js";
import { isRecord } from "../common/json.js";

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
export const jsonRpcGenerationAnswers: RequestHandler = (_req, res, next) => {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const error = isRecord(body) ? body.error : undefined;
    if (isRecord(error) && isGenerationMismatch(error.message)) {
      error.code = GENERATION_MISMATCH.jsonRpcCode;
      error.data = withReason(error.data);
    }
    return json(body);
  };
  next();
};

/** The same on HTTP+JSON: 409 `ABORTED`, where the SDK answers 400 `FAILED_PRECONDITION`. */
export const restGenerationAnswers: RequestHandler = (_req, res, next) => {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const error = isRecord(body) ? body.error : undefined;
    if (isRecord(error) && isGenerationMismatch(error.message)) {
      res.status(GENERATION_MISMATCH.httpStatus);
      error.code = GENERATION_MISMATCH.httpStatus;
      error.status = GENERATION_MISMATCH.restStatus;
      error.details = withReason(error.details);
    }
    return json(body);
  };
  next();
};
