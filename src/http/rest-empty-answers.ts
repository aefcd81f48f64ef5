import type { RequestHandler } from "express";
import { HTTP_STATUS } from "../contract/wire-codes.js";

const { NO_CONTENT, OK } = HTTP_STATUS;

/**
 * The REST (HTTP+JSON) binding answers a method whose result is `google.protobuf.Empty`
 * (DeleteTaskPushNotificationConfig, v1.0 and v0.3) with `200 {}`, as the spec's HTTP mapping
 * (gRPC transcoding) does and the Python SDK's server does. @a2a-js/sdk 1.3's `restHandler`
 * answers `204` with no body but its JSON content type, which a client that parses every
 * answer's body (the Python SDK's) fails on although the delete happened. The official JS client
 * reads both. The SDK sends its 204 as `res.status(204)` then `res.end()`; both are caught here.
 */
export const restEmptyAnswers: RequestHandler = (_req, res, next) => {
  const status = res.status.bind(res);
  let empty = false;
  res.status = (code: number) => {
    empty = code === NO_CONTENT;
    return status(empty ? OK : code);
  };
  const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
  res.end = ((...args: unknown[]) => {
    const bodiless = args.length === 0 || typeof args[0] === "function";
    if (empty && bodiless && !res.headersSent) {
      empty = false;
      if (res.getHeader("Content-Type") === undefined) res.type("application/json");
      return end("{}", ...args);
    }
    return end(...args);
  }) as typeof res.end;
  next();
};
