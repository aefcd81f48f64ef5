import type { RequestHandler, Response } from "express";
import { realTimers, type Timers } from "../common/timers.js";

/** An SSE comment line: no `id:`, no `data:`, so no client counts it as an event. */
export const KEEP_ALIVE_COMMENT = ": keep-alive\n\n";

const isEventStream = (res: Response): boolean =>
  String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream");

/**
 * Every SSE answer of the bindings (SendStreamingMessage, SubscribeToTask and its replay, v1.0
 * and v0.3, JSON-RPC and HTTP+JSON) sends a comment line after `intervalMs` without a write, so
 * it never goes silent while a tool runs: a client's read timeout (the Python SDK's httpx
 * default is 5 s) and a proxy's idle cut (often 30 to 60 s) see bytes. 0 turns it off.
 *
 * The SDK opens every stream with `flushHeaders()` once its `Content-Type` is
 * `text/event-stream`; that starts the timer, every later write (an event, an error event)
 * re-arms it, and the response's end stops it. Mounted before the layers that rewrite events
 * (`correctSseChunks`, `correctJsonAnswers`), so every write of theirs passes here, and the
 * comment, written below them, never gets an id.
 */
export function sseKeepAlive(intervalMs: number, timers: Timers = realTimers): RequestHandler {
  if (intervalMs <= 0) return (_req, _res, next) => next();
  return (_req, res, next) => {
    const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
    let handle: unknown;
    let open = false;
    const stop = () => {
      open = false;
      if (handle !== undefined) timers.clearTimeout(handle);
      handle = undefined;
    };
    const arm = () => {
      if (!open) return;
      if (handle !== undefined) timers.clearTimeout(handle);
      handle = timers.setTimeout(() => {
        handle = undefined;
        if (!open || res.writableEnded || res.destroyed) return stop();
        write(KEEP_ALIVE_COMMENT);
        arm();
      }, intervalMs);
    };
    const flush = res.flushHeaders.bind(res);
    res.flushHeaders = () => {
      flush();
      if (!open && isEventStream(res)) {
        open = true;
        arm();
      }
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      const written = write(chunk, ...rest);
      arm();
      return written;
    }) as typeof res.write;
    res.on("close", stop);
    res.on("finish", stop);
    next();
  };
}
