import type { RequestHandler } from "express";
import { SSE_EVENT_NUMBER_STATE_KEY } from "../contract/replay.js";
import { requestStateOf } from "./request-state.js";

/**
 * Every SSE event of a task stream goes out with its event number as the `id:` field (both HTTP
 * bindings), so a browser's EventSource, or any SSE client, sends it back as `Last-Event-ID` when
 * it reconnects. The SDK writes each event as one `data: …` chunk right after the request
 * handler yielded it; the handler left that event's number in the call's state
 * (`ReplayingRequestHandler`), which is read here. Error events (`event: error`) get none.
 */
export const sseEventIds: RequestHandler = (req, res, next) => {
  const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === "string" && chunk.startsWith("data: ")) {
      const n = requestStateOf(req.headers)?.get(SSE_EVENT_NUMBER_STATE_KEY);
      if (typeof n === "number") return write(`id: ${n}\n${chunk}`, ...rest);
    }
    return write(chunk, ...rest);
  }) as typeof res.write;
  next();
};
