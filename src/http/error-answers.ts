import { isStoreFaultText } from "../contract/store-faults.js";
import { JSONRPC_CODE } from "../contract/wire-codes.js";
import { isRecord, type JsonObject } from "../common/json.js";
import { errorOf, withError, type AnswerCorrector } from "./answer-correctors.js";
import { jsonRpcId } from "./error-handler.js";

const { INTERNAL_ERROR } = JSONRPC_CODE;
const HIDDEN = "Internal error.";

/**
 * Corrects what the SDK answers on JSON-RPC: some errors carry `id: request.id || null` (an id
 * of `0` or `""` is lost; the client needs it to match the answer) or echo an id that is not a
 * valid one; and an internal error (-32603) carries the thrown error's own message, which may be
 * any of Node's or a library's internal texts. That message is logged (`hidden`), as a server
 * fault, and the client gets "Internal error." instead.
 */
export const jsonRpcErrorAnswer: AnswerCorrector = (answer, request) => {
  const error = errorOf(answer.body);
  if (error === undefined) return answer;
  const body = { ...(answer.body as JsonObject), id: jsonRpcId(request.body) };
  if (
    error.code === INTERNAL_ERROR &&
    error.message !== HIDDEN &&
    !isStoreFaultText(error.message)
  ) {
    const hidden = { message: error.message };
    return {
      ...answer,
      body: { ...body, error: { code: INTERNAL_ERROR, message: HIDDEN } },
      hidden,
    };
  }
  return { ...answer, body };
};

/**
 * On the REST binding, a 5xx answer's message is hidden the same way (see jsonRpcErrorAnswer): in
 * v1.0's `{error: {message}}` body, and in v0.3's bare `{code, message}` one.
 */
export const restErrorAnswer: AnswerCorrector = (answer) => {
  const body = answer.body;
  if (answer.status < 500 || !isRecord(body)) return answer;
  const error = errorOf(body);
  const holder = error ?? (typeof body.code === "number" ? body : undefined);
  if (holder === undefined || holder.message === HIDDEN || isStoreFaultText(holder.message)) {
    return answer;
  }
  const hidden = { message: holder.message };
  const shown = { ...holder, message: HIDDEN };
  return error === undefined
    ? { ...answer, body: shown, hidden }
    : { ...withError(answer, shown), hidden };
};
