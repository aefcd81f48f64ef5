import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { isRecord } from "../common/json.js";
import { SSE_EVENT_NUMBER_STATE_KEY } from "../contract/replay.js";
import type { AnswerRequest } from "./answer-correctors.js";
import { jsonRpcErrorAnswer } from "./error-answers.js";
import { requestStateOf } from "./request-state.js";

/** One SSE chunk on its way out, as the SDK wrote it (one event: `data: …\n\n` or `event: …`). */
export interface SseChunk {
  readonly text: string;
  /** An internal error's own text, hidden from the client: logged as the chunk goes. */
  readonly hidden?: { readonly message: unknown };
}

/** What an SSE corrector may read: the request, and the answer's HTTP status. */
export interface SseRequest extends AnswerRequest {
  readonly status: number;
}

/** One correction of an SSE chunk: pure, it returns a new chunk or the same one. */
export type SseCorrector = (chunk: SseChunk, request: SseRequest) => SseChunk;

/** `chunk` through `correctors` in list order. Pure. */
export function correctedChunk(
  correctors: readonly SseCorrector[],
  chunk: SseChunk,
  request: SseRequest,
): SseChunk {
  return correctors.reduce((c, correct) => correct(c, request), chunk);
}

/**
 * Every SSE event of a task stream goes out with its event number as the `id:` field (both HTTP
 * bindings), so a browser's EventSource, or any SSE client, sends it back as `Last-Event-ID` when
 * it reconnects. The request handler left the event's number in the call's state
 * (`ReplayingRequestHandler`) just before the SDK wrote it. Error events (`event: error`) get none.
 */
export const sseEventId: SseCorrector = (chunk, request) => {
  if (!chunk.text.startsWith("data: ")) return chunk;
  const n = request.state?.get(SSE_EVENT_NUMBER_STATE_KEY);
  return typeof n === "number" ? { ...chunk, text: `id: ${n}\n${chunk.text}` } : chunk;
};

const SSE_ERROR = /^event: error\ndata: (.*)\n\n$/s;

/**
 * A JSON-RPC stream that fails after it opened ends with an `event: error` carrying the error's
 * body: corrected as a JSON answer is (`jsonRpcErrorAnswer`: the request's id, an internal
 * error's text hidden).
 */
export const jsonRpcSseError: SseCorrector = (chunk, request) => {
  const match = SSE_ERROR.exec(chunk.text);
  if (match === null) return chunk;
  let body: unknown;
  try {
    body = JSON.parse(match[1] ?? "");
  } catch {
    return chunk;
  }
  if (!isRecord(body)) return chunk;
  const answer = jsonRpcErrorAnswer({ status: request.status, body }, request);
  return {
    text: `event: error\ndata: ${JSON.stringify(answer.body)}\n\n`,
    ...(answer.hidden !== undefined && { hidden: answer.hidden }),
  };
};

/**
 * The one point where a binding's SSE chunks are corrected: `res.write` is patched once, and
 * each text chunk goes through `correctors` in list order before it is written. The list per
 * binding is in `answer-lists.ts`. Mounted after `sseKeepAlive`, whose own comment is written
 * below this and so never corrected.
 */
export function correctSseChunks(
  correctors: readonly SseCorrector[],
  logger: Logger,
): RequestHandler {
  return (req, res, next) => {
    const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== "string") return write(chunk, ...rest);
      const request = {
        body: req.body as unknown,
        state: requestStateOf(req.headers),
        status: res.statusCode,
      };
      const corrected = correctedChunk(correctors, { text: chunk }, request);
      if (corrected.hidden !== undefined) {
        logger.error({ error: corrected.hidden }, "internal error answered");
      }
      return write(corrected.text, ...rest);
    }) as typeof res.write;
    next();
  };
}
