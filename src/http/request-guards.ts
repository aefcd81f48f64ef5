import type { RequestHandler, Response } from "express";
import { toLegacyHTTPError } from "@a2a-js/sdk/compat/v0_3/server";
import { RequestMalformedError, toJsonRpcError, toRestErrorBody } from "@a2a-js/sdk/errors";
import { isRecord } from "../common/json.js";
import { jsonRpcId } from "./error-handler.js";
import {
  isLegacyRestPath,
  legacyJsonRpcBodyProblem,
  legacyRestBodyProblem,
} from "./legacy-request-shape.js";
import { jsonRpcBodyProblem, restBodyProblem, type ShapeProblem } from "./request-shape.js";
import { wireOf } from "./version-gate.js";
import { HTTP_STATUS, JSONRPC_CODE } from "../contract/wire-codes.js";

/** A JSON-RPC 2.0 notification: a valid request object without an `id` member (§4.1). */
export const isNotification = (body: unknown): boolean =>
  isRecord(body) && body.jsonrpc === "2.0" && typeof body.method === "string" && !("id" in body);

/** Makes every later attempt to answer on `res` a no-op (the answer is already out). */
function silence(res: Response): void {
  const self = res as unknown as Record<string, unknown>;
  const chain = () => res;
  for (const method of ["status", "json", "send", "set", "header", "type", "setHeader"]) {
    self[method] = chain;
  }
  for (const method of ["writeHead", "flushHeaders", "end"]) self[method] = chain;
  self.write = () => true;
}

/**
 * JSON-RPC 2.0 says the server MUST NOT reply to a notification. The request is still carried
 * out (a SendMessage notification starts its task: fire and forget), but the client gets HTTP
 * 204 with no body at once, and whatever the SDK answers later goes nowhere. Its errors too: a
 * notification is not confirmable.
 */
export const jsonRpcNotifications: RequestHandler = (req, res, next) => {
  if (isNotification(req.body)) {
    res.status(HTTP_STATUS.NO_CONTENT).end();
    silence(res);
  }
  next();
};

function jsonRpcError(problem: ShapeProblem) {
  switch (problem.kind) {
    case "invalid_request":
      return { code: JSONRPC_CODE.INVALID_REQUEST, message: problem.message };
    case "invalid_params":
      return toJsonRpcError(new RequestMalformedError(problem.message));
    default: {
      const never: never = problem;
      throw new Error(`unknown problem ${String(never)}`);
    }
  }
}

/**
 * Refuses a JSON-RPC body of the wrong shape (see request-shape.ts, and legacy-request-shape.ts
 * for a v0.3 request: `compat` is `server.compat.v03`) before the SDK reads it.
 */
export function jsonRpcShapeGuard(compat: boolean): RequestHandler {
  return (req, res, next) => {
    if (req.body === undefined) return next(); // not JSON: the SDK answers ContentTypeNotSupported
    const problem =
      wireOf(req, compat) === "0.3"
        ? legacyJsonRpcBodyProblem(req.body)
        : jsonRpcBodyProblem(req.body);
    if (problem === undefined) return next();
    res
      .status(HTTP_STATUS.OK)
      .json({ jsonrpc: "2.0", id: jsonRpcId(req.body), error: jsonRpcError(problem) });
  };
}

/** Refuses a REST body of the wrong shape, as jsonRpcShapeGuard does. */
export function restShapeGuard(compat: boolean): RequestHandler {
  return (req, res, next) => {
    if (req.body === undefined) return next(); // not JSON: the SDK answers ContentTypeNotSupported
    const legacy = wireOf(req, compat) === "0.3" && isLegacyRestPath(req.path);
    const problem = legacy
      ? legacyRestBodyProblem(req.method, req.path, req.body)
      : restBodyProblem(req.method, req.path, req.body);
    if (problem === undefined) return next();
    if (legacy) {
      // v0.3's REST error body and media type, as the SDK's v0.3 routes answer.
      return void res
        .status(HTTP_STATUS.BAD_REQUEST)
        .type("application/json")
        .json(toLegacyHTTPError(new RequestMalformedError(problem.message)));
    }
    // The media type the SDK gives every REST answer.
    res
      .status(HTTP_STATUS.BAD_REQUEST)
      .type("application/a2a+json")
      .json(toRestErrorBody(new RequestMalformedError(problem.message), HTTP_STATUS.BAD_REQUEST));
  };
}
