import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import express, { type Response } from "express";
import { afterEach, describe, expect, it } from "vitest";
import { sseHeadWithFirstEvent } from "../../../src/http/sse-head.js";

/** Counts the socket's writes (`_write` and `_writev`, one per system call). */
function countWrites(socket: Socket): { n: number } {
  const count = { n: 0 };
  const target = socket as unknown as Record<"_write" | "_writev", (...a: unknown[]) => unknown>;
  for (const name of ["_write", "_writev"] as const) {
    const original = target[name].bind(socket);
    target[name] = (...a: unknown[]) => {
      count.n++;
      return original(...a);
    };
  }
  return count;
}

/** A promise and its resolve (node 20 has no Promise.withResolvers). */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  if (server) await once(server, "close");
  server = undefined;
});

/** A server whose one route is `open(res)` behind the middleware; its base URL. */
async function serve(open: (res: Response) => void): Promise<string> {
  const app = express();
  app.use(sseHeadWithFirstEvent);
  app.get("/", (_req, res) => open(res));
  server = createServer(app).listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** What the SDK does to open a stream: the SSE headers, flushed, then the first event. */
function openStream(res: Response): void {
  res.setHeader("Content-Type", "text/event-stream");
  res.flushHeaders();
}

describe("sseHeadWithFirstEvent", () => {
  it("sends a stream's headers and its first event in one socket write", async () => {
    let before = -1;
    const url = await serve((res) => {
      const writes = countWrites(res.socket as Socket);
      openStream(res);
      res.write("data: 1\n\n");
      setImmediate(() => {
        before = writes.n;
        res.end();
      });
    });
    const answer = await fetch(url);
    expect(await answer.text()).toBe("data: 1\n\n");
    // Before the end: one write for the headers and the first event (two without the middleware).
    expect(before).toBe(1);
  });

  it("still sends the headers at once when nothing else is written in that tick", async () => {
    const headersSeen = deferred();
    const url = await serve((res) => {
      openStream(res);
      // The stream's end waits for the client to have the headers: they were not held back.
      void headersSeen.promise.then(() => res.end("data: last\n\n"));
    });
    const answer = await fetch(url);
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    headersSeen.resolve();
    expect(await answer.text()).toBe("data: last\n\n");
  });

  it("changes nothing for an answer that does not flush its headers", async () => {
    const url = await serve((res) => void res.json({ ok: true }));
    const answer = await fetch(url);
    expect(await answer.json()).toEqual({ ok: true });
  });
});
