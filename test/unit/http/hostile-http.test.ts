/**
 * The HTTP surface against requests no client should send, with a stub request handler: no
 * Claude, only 127.0.0.1:0. Every answer is the binding's JSON error (never an HTML page), a
 * refused request never reaches the handler, and internal texts stay in the log.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { deflateSync, gzipSync } from "node:zlib";
import { type GetTaskRequest, type StreamResponse, type Task } from "@a2a-js/sdk";
import { TaskNotFoundError } from "@a2a-js/sdk/errors";
import type { ServerCallContext } from "@a2a-js/sdk/server";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpApp } from "../../../src/http/app.js";
import {
  card,
  JSON_V1,
  unsupported,
  UnsupportedHandler,
  workingTask,
} from "./support/stub-handler.js";
import { answerClientErrorsAsJson } from "../../../src/http/client-errors.js";

/** Sends `request` as is on a fresh connection; resolves with all that comes back. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(request));
    let data = "";
    socket.on("data", (d: Buffer) => (data += d.toString()));
    socket.on("end", () => resolve(data));
    socket.on("error", reject);
  });
}

/** Records the calls that reach it; GetTask of "boom" fails the way a bug would. */
class StubHandler extends UnsupportedHandler {
  readonly calls: string[] = [];
  override getTask(params: GetTaskRequest, _context: ServerCallContext): Promise<Task> {
    this.calls.push(`getTask ${params.id}`);
    if (params.id === "boom") {
      return Promise.reject(new Error("ENOENT: no such file, open '/srv/secret/tasks.db'"));
    }
    return Promise.resolve(workingTask(params.id));
  }
  override sendMessage(): Promise<never> {
    this.calls.push("sendMessage");
    return unsupported();
  }
  override sendMessageStream(): AsyncGenerator<StreamResponse, void, undefined> {
    this.calls.push("sendMessageStream");
    // One event, then a fault of the server: the stream is open when it fails.
    const task = workingTask("t1");
    return (async function* () {
      await Promise.resolve();
      yield { payload: { $case: "task" as const, value: task } };
      throw new Error("EACCES: permission denied, open '/srv/secret/inbox'");
    })();
  }
  override resubscribe(): AsyncGenerator<StreamResponse, void, undefined> {
    this.calls.push("resubscribe");
    // An async generator: the refusal comes with the first event, before the stream opens.
    return (async function* () {
      await Promise.resolve();
      yield* [];
      throw new TaskNotFoundError("Task not found: t");
    })();
  }
}

let server: Server | undefined;
afterEach(async () => {
  if (!server) return;
  server.closeAllConnections();
  server.close();
  await once(server, "close");
  server = undefined;
});

async function start(o: { health?: () => Promise<never> } = {}) {
  const handler = new StubHandler();
  const logs: Record<string, unknown>[] = [];
  const logger = pino(
    { level: "debug" },
    { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) },
  );
  const app = createHttpApp({
    card,
    requestHandler: handler,
    bodyLimit: 100_000,
    logger,
    ...(o.health && { health: o.health }),
  });
  server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, handler, logs };
}

const post = (url: string, body: string | Buffer, headers: Record<string, string> = JSON_V1) =>
  fetch(url, { method: "POST", headers, body });
const rpc = (method: string, params: unknown, id: unknown = 1) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });
const userMessage = (extra: Record<string, unknown> = {}) => ({
  message: { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "hi" }], ...extra },
});

async function jsonAnswer(res: Response) {
  expect(res.headers.get("content-type")).toMatch(/json/);
  const text = await res.text();
  expect(text).not.toMatch(/<html|\n\s+at /i);
  return JSON.parse(text) as Record<string, unknown>;
}

describe("HTTP app: hostile bodies", () => {
  it.each([
    ["gzip", Buffer.from("this is not gzip")],
    ["deflate", Buffer.from("nor deflate")],
    ["br", Buffer.from([0xff, 0xff, 0xff, 0xff])],
    ["gzip", gzipSync("{oops")],
  ])("answers a %s body that does not decode as the binding's JSON error", async (enc, body) => {
    const r = await start();
    const headers = { ...JSON_V1, "content-encoding": enc };
    const jsonRpc = await jsonAnswer(await post(`${r.url}/a2a/jsonrpc`, body, headers));
    expect(jsonRpc).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: expect.any(Number) as unknown },
    });
    const res = await post(`${r.url}/a2a/rest/message:send`, body, headers);
    expect(res.status).toBe(400);
    expect(await jsonAnswer(res)).toMatchObject({
      error: { code: 400, status: "INVALID_ARGUMENT", message: expect.any(String) as unknown },
    });
    expect(r.handler.calls).toEqual([]);
    expect(r.logs.filter((l) => (l.level as number) >= 40)).toEqual([]);
  });

  it("still reads a body whose Content-Encoding is right", async () => {
    const r = await start();
    const headers = { ...JSON_V1, "content-encoding": "deflate" };
    const res = await post(
      `${r.url}/a2a/jsonrpc`,
      deflateSync(rpc("GetTask", { id: "t1" })),
      headers,
    );
    expect(await jsonAnswer(res)).toMatchObject({ id: 1, result: { id: "t1" } });
  });

  it("refuses a message whose role is not user, on both bindings, before the handler", async () => {
    const r = await start();
    for (const role of ["ROLE_AGENT", 2, "boss", undefined]) {
      const params = userMessage({ role });
      const a = await jsonAnswer(await post(`${r.url}/a2a/jsonrpc`, rpc("SendMessage", params)));
      expect(a).toMatchObject({ id: 1, error: { code: -32602, message: /message.role/ } });
      const rest = await post(`${r.url}/a2a/rest/message:send`, JSON.stringify(params));
      expect(rest.status).toBe(400);
      expect(await jsonAnswer(rest)).toMatchObject({
        error: { code: 400, status: "INVALID_ARGUMENT", message: /message.role/ },
      });
    }
    expect(r.handler.calls).toEqual([]);
  });

  it("refuses deep nesting and wrong part shapes without Node's texts", async () => {
    const r = await start();
    const deep = `${"[".repeat(10_000)}1${"]".repeat(10_000)}`;
    const bodies = [
      rpc("SendMessage", "DEEP").replace('"DEEP"', deep),
      rpc("GetTask", { id: "t", d: "DEEP" }).replace('"DEEP"', deep),
      rpc("SendStreamingMessage", userMessage({ parts: [{ raw: "%%%" }] })),
      rpc("SendMessage", userMessage({ parts: [{ text: { nested: true } }] })),
    ];
    const answers = [];
    for (const body of bodies)
      answers.push(await jsonAnswer(await post(`${r.url}/a2a/jsonrpc`, body)));
    expect(answers.map((a) => (a.error as { code: number }).code)).toEqual([
      -32600, -32600, -32602, -32602,
    ]);
    expect(JSON.stringify(answers)).not.toMatch(/call stack|Maximum|TypeError/);
    expect(r.handler.calls).toEqual([]);
  });

  it("answers a bad JSON-RPC envelope as Invalid Request (-32600) with a null id", async () => {
    const r = await start();
    for (const body of [
      "[]",
      JSON.stringify({ jsonrpc: "2.0", id: { a: 1 }, method: "GetTask", params: { id: "t" } }),
      JSON.stringify({ jsonrpc: "1.0", id: 3, method: "GetTask", params: { id: "t" } }),
    ]) {
      const a = await jsonAnswer(await post(`${r.url}/a2a/jsonrpc`, body));
      expect(a).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
      expect(a.id === null || a.id === 3).toBe(true);
    }
  });
});

describe("HTTP app: hostile URLs and HTTP", () => {
  it("answers a URL that is not valid percent-encoding with a JSON 400, not a server fault", async () => {
    const r = await start();
    for (const path of ["/a2a/rest/tasks/%ZZ", "/a2a/rest/tasks/%E0%A4%A:cancel"]) {
      const res = await fetch(`${r.url}${path}`, { headers: JSON_V1 });
      expect(res.status).toBe(400);
      expect(await jsonAnswer(res)).toMatchObject({
        error: { code: 400, message: "The request URL is not valid percent-encoding." },
      });
    }
    expect(r.logs.filter((l) => (l.level as number) >= 50)).toEqual([]);
  });

  it("answers what Node's parser refuses (headers too large, a broken request) with JSON", async () => {
    const logs: Record<string, unknown>[] = [];
    const logger = pino(
      {},
      { write: (l: string) => void logs.push(JSON.parse(l) as Record<string, unknown>) },
    );
    server = createServer((_req, res) => res.end("never"));
    answerClientErrorsAsJson(server, logger);
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    const big = await fetch(`http://127.0.0.1:${port}/x`, {
      headers: { "x-big": "b".repeat(20_000) },
    });
    expect(big.status).toBe(431);
    expect(await jsonAnswer(big)).toMatchObject({ error: { code: 431 } });
    const raw = await rawExchange(port, "GET /\u0000 HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(raw).toContain("Content-Type: application/json");
    expect(JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4))).toMatchObject({
      error: { code: 400, status: "INVALID_ARGUMENT" },
    });
    expect(logs.map((l) => l.msg)).toEqual(["unreadable HTTP request", "unreadable HTTP request"]);
  });
});

describe("HTTP app: unknown routes", () => {
  it("answers an unknown route of the REST binding in the binding's own error shape", async () => {
    const r = await start();
    for (const [method, path] of [
      ["PATCH", "/a2a/rest/message:send"],
      ["GET", "/a2a/rest/nope"],
    ] as const) {
      const res = await fetch(`${r.url}${path}`, { method, headers: JSON_V1 });
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/application\/a2a\+json/);
      expect(await jsonAnswer(res)).toEqual({
        error: {
          code: 404,
          status: "NOT_FOUND",
          message: `No route for ${method} ${path}`,
          details: [],
        },
      });
    }
  });
});

describe("HTTP app: JSON-RPC notifications", () => {
  it("answers a request without id with 204 and no body, and still carries it out", async () => {
    const r = await start();
    const notification = JSON.stringify({
      jsonrpc: "2.0",
      method: "GetTask",
      params: { id: "n1" },
    });
    const res = await post(`${r.url}/a2a/jsonrpc`, notification);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    const failing = JSON.stringify({ jsonrpc: "2.0", method: "NoSuchMethod", params: {} });
    const refused = await post(`${r.url}/a2a/jsonrpc`, failing);
    expect(refused.status).toBe(204);
    expect(await refused.text()).toBe("");
    expect(r.handler.calls).toEqual(["getTask n1"]);
  });

  it("answers a request with `id: null` (not a notification)", async () => {
    const r = await start();
    const res = await post(`${r.url}/a2a/jsonrpc`, rpc("GetTask", { id: "n2" }, null));
    expect(await jsonAnswer(res)).toMatchObject({ id: null, result: { id: "n2" } });
  });
});

describe("HTTP app: errors", () => {
  it("keeps a JSON-RPC id of 0 on an error the stream raises before it opens", async () => {
    const r = await start();
    const res = await post(`${r.url}/a2a/jsonrpc`, rpc("SubscribeToTask", { id: "t" }, 0));
    expect(await jsonAnswer(res)).toMatchObject({ id: 0, error: { code: -32001 } });
  });

  it("answers an internal fault without its text, and logs the text as an error", async () => {
    const r = await start();
    const a = await jsonAnswer(await post(`${r.url}/a2a/jsonrpc`, rpc("GetTask", { id: "boom" })));
    expect(a).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32603, message: "Internal error." },
    });
    const rest = await fetch(`${r.url}/a2a/rest/tasks/boom`, { headers: JSON_V1 });
    expect(rest.status).toBe(500);
    expect(await jsonAnswer(rest)).toMatchObject({ error: { message: "Internal error." } });
    const errors = r.logs.filter((l) => l.level === 50);
    expect(JSON.stringify(errors)).toContain("/srv/secret/tasks.db");
  });

  it("hides an internal fault's text in the error event of a stream that already opened", async () => {
    const r = await start();
    const message = { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "hi" }] };
    const res = await post(`${r.url}/a2a/jsonrpc`, rpc("SendStreamingMessage", { message }, 0));
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    const events = (await res.text()).split("\n\n").filter(Boolean);
    expect(events).toHaveLength(2);
    expect(events[1]).toBe(
      `event: error\ndata: ${JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        error: { code: -32603, message: "Internal error." },
      })}`,
    );
    expect(JSON.stringify(r.logs)).toContain("/srv/secret/inbox");
  });

  it("turns an error any route passes on into JSON, never Express's HTML page", async () => {
    const r = await start({ health: () => Promise.reject(new Error("db down at /srv/x")) });
    const res = await fetch(`${r.url}/healthz`);
    expect(res.status).toBe(500);
    const body = await jsonAnswer(res);
    expect(body).toEqual({
      error: { code: 500, status: "INTERNAL", message: "Internal error.", details: [] },
    });
    expect(r.logs.some((l) => l.level === 50 && JSON.stringify(l).includes("db down"))).toBe(true);
  });
});
