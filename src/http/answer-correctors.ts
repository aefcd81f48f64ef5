import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { isRecord } from "../common/json.js";
import { requestStateOf } from "./request-state.js";

/** A JSON answer on its way out: its HTTP status, its body, headers to add. */
export interface JsonAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** An internal error's own text, hidden from the client: logged as the answer goes. */
  readonly hidden?: { readonly message: unknown };
}

/** What a corrector may read of the request: its parsed body, its call context's state. */
export interface AnswerRequest {
  readonly body: unknown;
  readonly state: ReadonlyMap<string, unknown> | undefined;
}

/** One correction of what the SDK answers: pure, it returns a new answer or the same one. */
export type AnswerCorrector = (answer: JsonAnswer, request: AnswerRequest) => JsonAnswer;

/** `answer` through `correctors` in list order. Pure. */
export function correctedAnswer(
  correctors: readonly AnswerCorrector[],
  answer: JsonAnswer,
  request: AnswerRequest,
): JsonAnswer {
  return correctors.reduce((a, correct) => correct(a, request), answer);
}

/**
 * The one point where a binding's JSON answers are corrected: `res.json` is patched once, and
 * each answer (the SDK's, or a guard's mounted after this) goes through `correctors` in list
 * order before it is sent. The list per binding is in `answer-lists.ts`.
 */
export function correctJsonAnswers(
  correctors: readonly AnswerCorrector[],
  logger: Logger,
): RequestHandler {
  return (req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const request = { body: req.body as unknown, state: requestStateOf(req.headers) };
      const answer = correctedAnswer(correctors, { status: res.statusCode, body }, request);
      if (answer.hidden !== undefined) {
        logger.error({ error: answer.hidden }, "internal error answered");
      }
      if (answer.status !== res.statusCode) res.status(answer.status);
      for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
      return json(answer.body);
    };
    next();
  };
}

/** The body's `error` object, if it has one. */
export const errorOf = (body: unknown): Record<string, unknown> | undefined =>
  isRecord(body) && isRecord(body.error) ? body.error : undefined;

/** `answer` with its body's `error` replaced by `error` (the rest of the body kept). */
export function withError(answer: JsonAnswer, error: Record<string, unknown>): JsonAnswer {
  return { ...answer, body: { ...(answer.body as Record<string, unknown>), error } };
}
