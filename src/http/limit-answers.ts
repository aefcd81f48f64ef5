import type { RequestHandler } from "express";
import {
  ERROR_DOMAIN,
  LIMIT_HTTP_STATUS,
  LIMIT_JSONRPC_CODE,
  LIMIT_REASON,
  LIMIT_REST_STATUS,
} from "../a2a/contract/limits.js";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const REASONS = new Set<string>(Object.values(LIMIT_REASON));

/** The ErrorInfo of a per-caller limit among an error's `data` / `details`, if there is one. */
export function limitInfoIn(list: unknown): Json | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.find(
    (d): d is Json =>
      isObject(d) &&
      d.domain === ERROR_DOMAIN &&
      typeof d.reason === "string" &&
      REASONS.has(d.reason),
  );
}

/**
 * A refusal by a per-caller limit (`CallerLimitError`) on JSON-RPC: the SDK knows no code for it
 * and answers -32603; it gets its own, -32029, with the same message and ErrorInfo. Mounted after
 * `jsonRpcAnswers`, so it corrects the answer before that one hides internal errors.
 */
export const jsonRpcLimitAnswers: RequestHandler = (_req, res, next) => {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const error = isObject(body) ? body.error : undefined;
    if (isObject(error) && limitInfoIn(error.data) !== undefined) error.code = LIMIT_JSONRPC_CODE;
    return json(body);
  };
  next();
};

/**
 * The same refusal on the REST binding: HTTP 429 (`RESOURCE_EXHAUSTED`) with `Retry-After` when
 * the limit's reset time is known, instead of the SDK's 500. Mounted after `restAnswers`.
 */
export const restLimitAnswers: RequestHandler = (_req, res, next) => {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const error = isObject(body) ? body.error : undefined;
    const info = isObject(error) ? limitInfoIn(error.details) : undefined;
    if (isObject(error) && info !== undefined) {
      res.status(LIMIT_HTTP_STATUS);
      error.code = LIMIT_HTTP_STATUS;
      error.status = LIMIT_REST_STATUS;
      const retryAfter = isObject(info.metadata) ? info.metadata.retryAfterSeconds : undefined;
      if (typeof retryAfter === "string") res.setHeader("Retry-After", retryAfter);
    }
    return json(body);
  };
  next();
};
