import express, { type ErrorRequestHandler, type RequestHandler } from "express";

/** Errors of body parsing, turned into the binding's own JSON error shape (never an HTML page). */
interface BodyError {
  status: number;
  message: string;
  jsonRpcCode: number;
}

function classify(err: unknown, limit: number): BodyError | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const type = (err as { type?: unknown }).type;
  if (type === "entity.too.large") {
    return {
      status: 413,
      message: `Request body too large: the limit is ${limit} bytes (server.bodyLimit).`,
      jsonRpcCode: -32600,
    };
  }
  if (type === "entity.parse.failed" || err instanceof SyntaxError) {
    return { status: 400, message: "Invalid JSON payload.", jsonRpcCode: -32700 };
  }
  if (type === "encoding.unsupported" || type === "charset.unsupported") {
    return { status: 415, message: "Unsupported body encoding.", jsonRpcCode: -32600 };
  }
  return undefined;
}

/**
 * Parses JSON bodies up to `limit` bytes before the SDK's handlers (whose own parser keeps the
 * 100 kB default). Bodies of other content types are left to the SDK, which answers them with
 * ContentTypeNotSupported.
 */
export function jsonBody(
  limit: number,
  binding: "jsonrpc" | "rest",
): [RequestHandler, ErrorRequestHandler] {
  const onError: ErrorRequestHandler = (err, _req, res, next) => {
    const e = classify(err, limit);
    if (e === undefined) return next(err);
    if (binding === "jsonrpc") {
      // JSON-RPC reports a parse error with HTTP 200, as the SDK does; an oversize body keeps 413.
      res
        .status(e.status === 413 ? 413 : 200)
        .json({ jsonrpc: "2.0", id: null, error: { code: e.jsonRpcCode, message: e.message } });
    } else {
      res.status(e.status).json({
        error: { code: e.status, status: "INVALID_ARGUMENT", message: e.message, details: [] },
      });
    }
  };
  // The REST binding also takes application/a2a+json: left to the SDK, it would get the SDK's
  // 100 kB limit and an HTML 413 page.
  const type =
    binding === "rest" ? ["application/json", "application/a2a+json"] : "application/json";
  return [express.json({ limit, type }), onError];
}
