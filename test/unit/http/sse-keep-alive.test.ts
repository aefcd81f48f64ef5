/**
 * `sseKeepAlive`: a comment line on an SSE answer after a silence, driven by a hand-cranked
 * clock (no sleeps): what is armed when, what a tick writes, and what stops it.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Response } from "express";
import { afterEach, describe, expect, it } from "vitest";
import type { Timers } from "../../../src/common/timers.js";
import { KEEP_ALIVE_COMMENT, sseKeepAlive } from "../../../src/http/sse-keep-alive.js";
import pino from "pino";
import { correctSseChunks, sseEventId } from "../../../src/http/sse-correctors.js";

/** Timers that fire only when the test says so; `pending` is what is armed now. */
class HandTimers implements Timers {
  private next = 1;
  readonly armed = new Map<number, { fn: () => void; ms: number }>();
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.armed.set(id, { fn, ms });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.armed.delete(handle as number);
  }
  get pending(): number[] {
    return [...this.armed.values()].map((t) => t.ms);
  }
  /** Fires every armed timer once. */
  fire(): void {
    const due = [...this.armed.entries()];
    this.armed.clear();
    for (const [, t] of due) t.fn();
  }
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  if (server) await once(server, "close");
  server = undefined;
});

/** A server whose one route is `route(res)` behind the middleware (and the SSE event ids). */
async function serve(mw: express.RequestHandler, route: (res: Response) => void): Promise<string> {
  const app = express();
  app.use(mw, correctSseChunks([sseEventId], pino({ enabled: false })));
  app.get("/", (_req, res) => route(res));
  server = createServer(app).listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Reads `body` until `text` has arrived (or the stream ends); all read so far. */
async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  seen: { text: string },
  text: string,
): Promise<void> {
  const decoder = new TextDecoder();
  while (!seen.text.includes(text)) {
    const { value, done } = await reader.read();
    if (done) return;
    seen.text += decoder.decode(value, { stream: true });
  }
}

describe("sseKeepAlive", () => {
  it("writes a comment after each silence of a stream, re-armed by every write, stopped at the end", async () => {
    const timers = new HandTimers();
    let res!: Response;
    let closed!: Promise<unknown>;
    const url = await serve(sseKeepAlive(200, timers), (r) => {
      res = r;
      closed = once(r, "close");
      r.setHeader("Content-Type", "text/event-stream");
      r.flushHeaders();
      r.write("data: 1\n\n");
    });
    const answer = await fetch(url);
    const reader = answer.body!.getReader();
    const seen = { text: "" };
    await readUntil(reader, seen, "data: 1\n\n");
    expect(timers.pending).toEqual([200]);

    timers.fire();
    await readUntil(reader, seen, KEEP_ALIVE_COMMENT);
    expect(timers.pending).toEqual([200]);
    timers.fire();
    await readUntil(reader, seen, KEEP_ALIVE_COMMENT + KEEP_ALIVE_COMMENT);
    res.write("data: 2\n\n");
    expect(timers.pending).toEqual([200]);
    res.end();
    await readUntil(reader, seen, "data: 2\n\n");
    expect(seen.text).toBe(`data: 1\n\n${KEEP_ALIVE_COMMENT}${KEEP_ALIVE_COMMENT}data: 2\n\n`);
    await closed;
    expect(timers.pending).toEqual([]);
  });

  it("never arms on an answer that is not an event stream", async () => {
    const timers = new HandTimers();
    const url = await serve(sseKeepAlive(200, timers), (r) => {
      r.setHeader("Content-Type", "application/json");
      r.flushHeaders();
      r.end(JSON.stringify({ ok: true }));
    });
    expect(await (await fetch(url)).json()).toEqual({ ok: true });
    expect(timers.pending).toEqual([]);
  });

  it("arms nothing with 0 (off)", async () => {
    const timers = new HandTimers();
    let res!: Response;
    const url = await serve(sseKeepAlive(0, timers), (r) => {
      res = r;
      r.setHeader("Content-Type", "text/event-stream");
      r.flushHeaders();
      r.write("data: 1\n\n");
    });
    const answer = await fetch(url);
    const reader = answer.body!.getReader();
    const seen = { text: "" };
    await readUntil(reader, seen, "data: 1\n\n");
    expect(timers.pending).toEqual([]);
    res.end("data: 2\n\n");
    await readUntil(reader, seen, "data: 2\n\n");
    expect(seen.text).toBe("data: 1\n\ndata: 2\n\n");
  });

  it("stops when the client goes away", async () => {
    const timers = new HandTimers();
    let closed!: Promise<unknown>;
    const url = await serve(sseKeepAlive(200, timers), (r) => {
      closed = once(r, "close");
      r.setHeader("Content-Type", "text/event-stream");
      r.flushHeaders();
      r.write("data: 1\n\n");
    });
    const aborted = new AbortController();
    const answer = await fetch(url, { signal: aborted.signal });
    await readUntil(answer.body!.getReader(), { text: "" }, "data: 1\n\n");
    expect(timers.pending).toEqual([200]);
    aborted.abort();
    await closed;
    expect(timers.pending).toEqual([]);
  });
});
