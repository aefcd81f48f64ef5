import {
  LIMIT_HTTP_STATUS,
  LIMIT_JSONRPC_CODE,
  LIMIT_REST_STATUS,
  REFUSAL_STATE_KEY,
  type LimitErrorInfo,
} from "../contract/limits.js";
import { isRecord } from "../common/json.js";
import { errorOf, withError, type AnswerCorrector } from "./answer-correctors.js";

/** The ErrorInfo of the per-caller limit that refused this request, if one did. */
function refusalIn(state: ReadonlyMap<string, unknown> | undefined): LimitErrorInfo | undefined {
  const info = state?.get(REFUSAL_STATE_KEY);
  return isRecord(info) ? (info as unknown as LimitErrorInfo) : undefined;
}

/**
 * A request refused by a per-caller limit, on JSON-RPC: code -32029 and the ErrorInfo in `data`,
 * whatever the SDK made of the error (it knows no code for it: -32603, without `data` on its
 * v0.3 transport). Before `jsonRpcErrorAnswer`, which would hide an internal error's message.
 */
export const jsonRpcLimitAnswer: AnswerCorrector = (answer, request) => {
  const info = refusalIn(request.state);
  const error = errorOf(answer.body);
  if (info === undefined || error === undefined) return answer;
  return withError(answer, { ...error, code: LIMIT_JSONRPC_CODE, data: [info] });
};

/**
 * The same refusal on the REST binding: HTTP 429 (`RESOURCE_EXHAUSTED`), with `Retry-After` when
 * the limit's reset time is known, instead of the SDK's 500. v1.0's body is a `google.rpc.Status`
 * (the ErrorInfo in `details`); v0.3's is `{ code, message, data }`. Before `restErrorAnswer`.
 */
export const restLimitAnswer: AnswerCorrector = (answer, request) => {
  const info = refusalIn(request.state);
  const body = answer.body;
  if (info === undefined || !isRecord(body)) return answer;
  const retryAfter = info.metadata.retryAfterSeconds;
  const error = errorOf(body);
  return {
    ...answer,
    status: LIMIT_HTTP_STATUS,
    body:
      error === undefined
        ? { ...body, code: LIMIT_JSONRPC_CODE, data: [info] }
        : {
            ...body,
            error: {
              ...error,
              code: LIMIT_HTTP_STATUS,
              status: LIMIT_REST_STATUS,
              details: [info],
            },
          },
    ...(retryAfter !== undefined && { headers: { ...answer.headers, "Retry-After": retryAfter } }),
  };
};
