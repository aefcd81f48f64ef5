import type { RequestHandler } from "express";
import { RequestMalformedError, toRestErrorBody } from "@a2a-js/sdk/errors";
import { historyLengthProblem } from "../a2a/handler/history-length.js";
import { isLegacyRestPath } from "./legacy-request-shape.js";
import { HTTP_STATUS } from "../contract/wire-codes.js";

/**
 * A negative `historyLength` query parameter (`GET /tasks/{id}`, `GET /tasks`) is refused with
 * the text every binding gives (`historyLength must be 0 or more (got <n>)`), before the SDK's
 * REST layer, which refuses it with its own words ("historyLength must be non-negative"). Other
 * values, and v0.3's routes (`/v1/…`, their own error shape), go on to the SDK as before.
 */
export const restHistoryLengthGuard: RequestHandler = (req, res, next) => {
  const raw =
    req.method === "GET" && !isLegacyRestPath(req.path) ? req.query.historyLength : undefined;
  const value = typeof raw === "string" && /^\s*-\d+\s*$/.test(raw) ? Number(raw) : undefined;
  const problem = historyLengthProblem(value);
  if (problem === undefined) return next();
  res
    .status(HTTP_STATUS.BAD_REQUEST)
    .type("application/a2a+json")
    .json(toRestErrorBody(new RequestMalformedError(problem), HTTP_STATUS.BAD_REQUEST));
};
