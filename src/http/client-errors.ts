import { STATUS_CODES, type Server } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "pino";
import { HTTP_STATUS, JSONRPC_CODE } from "../contract/wire-codes.js";
import { errorAnswer } from "./error-handler.js";

/** The HTTP status for a request Node's parser refused (its own defaults: 431, 408, else 400). */
export function clientErrorStatus(code: unknown): number {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return HTTP_STATUS.HEADERS_TOO_LARGE;
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return HTTP_STATUS.REQUEST_TIMEOUT;
    default:
      return HTTP_STATUS.BAD_REQUEST;
  }
}

/** The raw HTTP response for such a request: the REST error body, as JSON. Pure. */
export function clientErrorResponse(status: number): string {
  const reason = STATUS_CODES[status] ?? "Bad Request";
  const message = `${reason}: the request could not be read as HTTP.`;
  const body = JSON.stringify(
    errorAnswer("rest", { status, message, jsonRpcCode: JSONRPC_CODE.INVALID_REQUEST }, null).body,
  );
  return (
    `HTTP/1.1 ${status} ${reason}\r\n` +
    "Content-Type: application/json; charset=utf-8\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    "Connection: close\r\n\r\n" +
    body
  );
}

/**
 * Requests Node's HTTP parser refuses (a URL or headers over its size limit, a malformed request
 * line) never reach Express: Node answers them itself with an empty body. Here they get the same
 * JSON error body as everything else, and one log line.
 */
export function answerClientErrorsAsJson(server: Server, logger: Logger): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A peer that went away (or a socket already answered) can be told nothing.
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = clientErrorStatus(err.code);
    logger.info({ status, code: err.code }, "unreadable HTTP request");
    socket.end(clientErrorResponse(status));
  });
}
