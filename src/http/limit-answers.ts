import type { IncomingHttpHeaders } from "node:http";
import type { RequestHandler } from "express";
import {
  LIMIT_HTTP_STATUS,
  LIMIT_JSONRPC_CODE,
  LIMIT_REST_STATUS,
  REFUSAL_STATE_KEY,
  type LimitErrorInfo,
} from "../contract/limits.js";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

// Keyed by the request's header object: the SDK hands that same object to the call-context
// builder, whose state the request handler marks a refusal in.
const states = new WeakMap<IncomingHttpHeaders, ReadonlyMap<string, unknown>>();

/** The call-context builder records each request's state, so its answer can be corrected. */
export function rememberState(
  headers: IncomingHttpHeaders | undefined,
  state: ReadonlyMap<string, unknown>,
): void {
  if (headers !== undefined) states.set(headers, state);
}

/** The call context's state of a request, once the SDK has built its context. */
export function requestStateOf(
  headers: IncomingHttpHeaders,
): ReadonlyMap<string, unknown> | undefined {
  return states.get(headers);
}

/** The ErrorInfo of the per-caller limit that refused this request, if one did. */
function refusalOf(headers: IncomingHttpHeaders): LimitErrorInfo | undefined {
  const info = states.get(headers)?.get(REFUSAL_STATE_KEY);
  return isObject(info) ? (info as unknown as LimitErrorInfo) : undefined;
}

/**
 * A request refused by a per-caller limit, on JSON-RPC: code -32029 and the ErrorInfo in `data`,
 * whatever the SDK made of the error (it knows no code for it: -32603, without `data` on its
 * v0.3 transport). Mounted after `jsonRpcAnswers`, so it corrects the answer before that one
 * would hide an internal error's message.
 */
export const jsonRpcLimitAnswers: RequestHandler = (req, res, next) => {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const info = refusalOf(req.headers);
    const error = isObject(body) ? body.error : undefined;
    if (info !== undefined && isObject(error)) {
      error.code = LIMIT_JSONRPC_CODE;
      error.data = [info];
    }
    return json(body);
  };
  next();
};

/**
 * The same refusal on the REST binding: HTTP 429 (`RESOURCE_EXHAUSTED`), with `Retry-After` when
 * the limit's reset time is known, instead of the SDK's 500. v1.0's body is a `google.rpc.Status`
 * (the ErrorInfo in `details`); v0.3's is `{ code, message, data }`. Mounted after `restAnswers`.
 */
export const restLimitAnswers: RequestHandler = (req, res, next) => {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const info = refusalOf(req.headers);
    if (info === undefined || !isObject(body)) return json(body);
    res.status(LIMIT_HTTP_STATUS);
    const retryAfter = info.metadata.retryAfterSeconds;
    if (retryAfter !== undefined) res.setHeader("Retry-After", retryAfter);
    const error = body.error;
    if (isObject(error)) {
      error.code = LIMIT_HTTP_STATUS;
      error.status = LIMIT_REST_STATUS;
      error.details = [info];
    } else {
      body.code = LIMIT_JSONRPC_CODE;
      body.data = [info];
    }
    return json(body);
  };
  next();
};
