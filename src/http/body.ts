import express, { type RequestHandler } from "express";
import { HTTP_STATUS, JSONRPC_CODE } from "../contract/wire-codes.js";

/** A request the server could not read, as the protocol's error says it. */
export interface BodyError {
  readonly status: number;
  readonly message: string;
  readonly jsonRpcCode: number;
}

const { INVALID_REQUEST, PARSE_ERROR } = JSONRPC_CODE;
const { BAD_REQUEST, PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE } = HTTP_STATUS;

/**
 * What a body-parser (or decompression) failure means for the client, in words that name the
 * request's fault and never the parser's internals (its messages carry zlib and stack details).
 * Undefined when `err` is not a failure to read the body. Pure.
 */
export function classifyBodyError(err: unknown, limit: number): BodyError | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const { type, code } = err as { type?: unknown; code?: unknown };
  switch (type) {
    case "entity.too.large":
      return {
        status: PAYLOAD_TOO_LARGE,
        message: `Request body too large: the limit is ${limit} bytes (server.bodyLimit).`,
        jsonRpcCode: INVALID_REQUEST,
      };
    case "entity.parse.failed":
      return { status: BAD_REQUEST, message: "Invalid JSON payload.", jsonRpcCode: PARSE_ERROR };
    case "encoding.unsupported":
    case "charset.unsupported":
      return {
        status: UNSUPPORTED_MEDIA_TYPE,
        message: "Unsupported body encoding.",
        jsonRpcCode: INVALID_REQUEST,
      };
    case "request.aborted":
    case "request.size.invalid":
      return {
        status: BAD_REQUEST,
        message: "The request body ended before its Content-Length.",
        jsonRpcCode: INVALID_REQUEST,
      };
    default:
      break;
  }
  // A gzip/deflate/br body that does not decompress: zlib's own errors carry a Z_* code.
  if (typeof code === "string" && /^(Z_|ERR_BROTLI|ERR_ZLIB)/.test(code)) {
    return {
      status: BAD_REQUEST,
      message: "The request body does not decode as its Content-Encoding says.",
      jsonRpcCode: INVALID_REQUEST,
    };
  }
  if (err instanceof SyntaxError) {
    return { status: BAD_REQUEST, message: "Invalid JSON payload.", jsonRpcCode: PARSE_ERROR };
  }
  return undefined;
}

/**
 * Parses JSON bodies up to `limit` bytes before the SDK's handlers (whose own parser keeps the
 * 100 kB default). Bodies of other content types are left to the SDK, which answers them with
 * ContentTypeNotSupported. Failures go to the app's error handler (`error-handler.ts`).
 */
export function jsonBody(limit: number, binding: "jsonrpc" | "rest"): RequestHandler {
  // The REST binding also takes application/a2a+json: left to the SDK, it would get the SDK's
  // 100 kB limit and an HTML 413 page.
  const type =
    binding === "rest" ? ["application/json", "application/a2a+json"] : "application/json";
  return express.json({ limit, type });
}
