import { STATUS_CODES } from "node:http";
import type { ErrorRequestHandler, Request } from "express";
import type { Logger } from "pino";
import { HTTP_STATUS, JSONRPC_CODE } from "../contract/wire-codes.js";
import { classifyBodyError, type BodyError } from "./body.js";

/** Which protocol's error shape a request gets. */
export type Binding = "jsonrpc" | "rest" | "plain";

const { INVALID_REQUEST, INTERNAL_ERROR, PARSE_ERROR } = JSONRPC_CODE;

const INTERNAL: BodyError = {
  status: HTTP_STATUS.INTERNAL_SERVER_ERROR,
  message: "Internal error.",
  jsonRpcCode: INTERNAL_ERROR,
};

/**
 * An error a client caused that some middleware flagged with a 4xx status (`http-errors`
 * `status`, the router's for a URL it cannot decode), told in the status's own words: its message
 * may hold internals.
 */
function flaggedClientError(err: unknown): BodyError | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  // The router flags a URL it cannot percent-decode with a bare `status: 400`.
  const { status, statusCode } = err as Record<string, unknown>;
  const code = typeof status === "number" ? status : statusCode;
  if (typeof code !== "number" || code < 400 || code > 499) return undefined;
  if (err instanceof URIError) {
    return {
      status: code,
      message: "The request URL is not valid percent-encoding.",
      jsonRpcCode: INVALID_REQUEST,
    };
  }
  return {
    status: code,
    message: `${STATUS_CODES[code] ?? "Bad request"}.`,
    jsonRpcCode: INVALID_REQUEST,
  };
}

const restStatusName = (status: number): string =>
  status === HTTP_STATUS.NOT_FOUND ? "NOT_FOUND" : status >= 500 ? "INTERNAL" : "INVALID_ARGUMENT";

/** A JSON-RPC id is a string, an integer or null (JSON-RPC 2.0 §4). */
export function jsonRpcId(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | null | undefined)?.id;
  return typeof id === "string" || (typeof id === "number" && Number.isInteger(id)) ? id : null;
}

/** The HTTP status and body of an error answer in `binding`'s own shape. Pure. */
export function errorAnswer(
  binding: Binding,
  problem: BodyError,
  id: string | number | null,
): { status: number; body: unknown } {
  switch (binding) {
    case "jsonrpc":
      // JSON-RPC reports request errors with HTTP 200, as the SDK does; an oversize body keeps
      // its 413 and a server fault its 500, so proxies and clients see them for what they are.
      return {
        status:
          problem.status === HTTP_STATUS.PAYLOAD_TOO_LARGE || problem.status >= 500
            ? problem.status
            : HTTP_STATUS.OK,
        body: {
          jsonrpc: "2.0",
          id,
          error: { code: problem.jsonRpcCode, message: problem.message },
        },
      };
    case "rest":
    case "plain":
      return {
        status: problem.status,
        body: {
          error: {
            code: problem.status,
            status: restStatusName(problem.status),
            message: problem.message,
            details: [],
          },
        },
      };
    default: {
      const never: never = binding;
      throw new Error(`unknown binding ${String(never)}`);
    }
  }
}

/**
 * The app's last error handler: every error a route or middleware passes on becomes the
 * protocol's JSON error (never Express's HTML page with a stack trace). A client's fault is
 * answered and left to the request's one log line; anything else is a server fault, logged with
 * its stack inside one JSON line and answered without it.
 */
export function finalErrorHandler(o: {
  readonly bodyLimit: number;
  readonly logger: Logger;
  readonly bindingOf: (req: Request) => Binding;
}): ErrorRequestHandler {
  return (err, req, res, _next) => {
    let problem = classifyBodyError(err, o.bodyLimit) ?? flaggedClientError(err);
    if (problem === undefined) {
      o.logger.error({ err, method: req.method, path: req.path }, "request failed");
      problem = INTERNAL;
    }
    if (res.headersSent) {
      // Half an answer is out (a stream): nothing valid can follow it on this connection.
      req.socket.destroy();
      return;
    }
    const binding = o.bindingOf(req);
    // The body of a request that failed to parse is not the client's: its id is unknown.
    const id =
      binding === "jsonrpc" && problem.jsonRpcCode !== PARSE_ERROR ? jsonRpcId(req.body) : null;
    const answer = errorAnswer(binding, problem, id);
    // The media type the SDK gives every REST answer.
    if (binding === "rest") res.type("application/a2a+json");
    res.status(answer.status).json(answer.body);
  };
}
