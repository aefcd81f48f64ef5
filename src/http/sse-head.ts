import type { RequestHandler, Response } from "express";

/**
 * Makes `res.flushHeaders()` send the headers with whatever the same tick writes next. The SDK
 * opens every stream (SendStreamingMessage, SubscribeToTask, on both bindings) with
 * `flushHeaders()` and then writes the first event at once: two socket writes, the headers alone
 * in the first, each a system call that wakes the client. Corked until the end of the tick (as
 * node corks every `res.write`), the headers and the first event leave in one write. They leave
 * in the same tick as before, so a client sees no delay; a stream that writes nothing more in
 * that tick still gets its headers at the tick's end.
 */
export function headersWithNextWrite(res: Response): void {
  const flush = res.flushHeaders.bind(res);
  res.flushHeaders = () => {
    const socket = res.socket;
    if (socket !== null && !socket.writableCorked) {
      socket.cork();
      process.nextTick(() => socket.uncork());
    }
    flush();
  };
}

/** `headersWithNextWrite` on every response of the bindings. */
export const sseHeadWithFirstEvent: RequestHandler = (_req, res, next) => {
  headersWithNextWrite(res);
  next();
};
