/** The HTTP surface with a stub request handler: no Claude, only 127.0.0.1:0. */
import type { SendMessageRequest } from "@a2a-js/sdk";
import {
  ContentTypeNotSupportedError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from "@a2a-js/sdk/errors";
import { afterEach, describe, expect, it } from "vitest";
import { versionRefusedMessage } from "../../../src/contract/versions.js";
import { CALLER_STATE_KEY } from "../../../src/http/app.js";
import {
  BODY_LIMIT,
  failingStream,
  post,
  rpc,
  sendParams,
  start,
  stopApp,
} from "./support/stub-app.js";
import { JSON_V1, V1 } from "./support/stub-handler.js";

afterEach(stopApp);

/** A JSON-RPC error answer to a request whose id could not be read. */
const rpcError = (code: number, message: string) => ({
  jsonrpc: "2.0",
  id: null,
  error: { code, message },
});

/** A REST error body of the protocol (google.rpc.Status), INVALID_ARGUMENT, no details. */
const restError = (code: number, message: string) => ({
  error: { code, status: "INVALID_ARGUMENT", message, details: [] },
});

describe("HTTP app: public routes", () => {
  it("serves the card on both well-known paths and /healthz, even behind allowedLogins", async () => {
    const r = await start(["ada@example.com"]);
    const card1 = await fetch(`${r.url}/.well-known/agent-card.json`);
    const card2 = await fetch(`${r.url}/.well-known/agent-card`);
    expect(card1.status).toBe(200);
    expect(card1.headers.get("content-type")).toMatch(/application\/json/);
    const json = (await card1.json()) as { name: string; supportedInterfaces: unknown[] };
    expect(json.supportedInterfaces).toHaveLength(2);
    expect(await card2.json()).toEqual(json);
    const health = await fetch(`${r.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
  });

  it("serves the card with Cache-Control, a strong ETag and Last-Modified, the same on both paths", async () => {
    const r = await start();
    const builtAt = new Date(r.cardBuiltAt.getTime() - (r.cardBuiltAt.getTime() % 1000));
    const seen = [];
    for (const path of ["/.well-known/agent-card.json", "/.well-known/agent-card"]) {
      const res = await fetch(`${r.url}${path}`);
      expect(res.status).toBe(200);
      const body = await res.text();
      const etag = res.headers.get("etag") ?? "";
      expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{16,}"$/); // strong: no W/ prefix
      expect(res.headers.get("last-modified")).toBe(builtAt.toUTCString());
      seen.push({ etag, body });
    }
    expect(seen[1]).toEqual(seen[0]);
  });

  it.each(["/.well-known/agent-card.json", "/.well-known/agent-card"])(
    "answers %s with 304 to a matching If-None-Match or a later If-Modified-Since",
    async (path) => {
      const r = await start();
      const first = await fetch(`${r.url}${path}`);
      const etag = first.headers.get("etag") ?? "";
      const lastModified = first.headers.get("last-modified") ?? "";
      const later = new Date(Date.parse(lastModified) + 60_000).toUTCString();
      const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
      const matching: Record<string, string>[] = [
        { "If-None-Match": etag },
        { "If-None-Match": `"other", ${etag}` },
        { "If-Modified-Since": lastModified },
        { "If-Modified-Since": later },
      ];
      for (const headers of matching) {
        const res = await fetch(`${r.url}${path}`, { headers });
        expect(res.status).toBe(304);
        expect(await res.text()).toBe("");
        expect(res.headers.get("etag")).toBe(etag);
      }
      const stale: Record<string, string>[] = [
        { "If-None-Match": '"stale"' },
        { "If-Modified-Since": earlier },
        // If-None-Match wins over a date that alone would give a 304.
        { "If-None-Match": '"stale"', "If-Modified-Since": later },
      ];
      for (const headers of stale) {
        const res = await fetch(`${r.url}${path}`, { headers });
        expect(res.status).toBe(200);
        expect(await res.text()).toBe(await first.clone().text());
      }
    },
  );

  it("answers an unknown route with a JSON 404, never an HTML page", async () => {
    const r = await start();
    for (const [method, path] of [
      ["GET", "/nope"],
      ["POST", "/nope/deeper?x=1"],
      ["GET", "/a2a/jsonrpc"],
    ] as const) {
      const res = await fetch(`${r.url}${path}`, { method });
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/json/);
      expect(await res.json()).toEqual({
        error: "not_found",
        message: `No route for ${method} ${path.split("?")[0]}`,
      });
    }
  });
});

describe("HTTP app: allowedLogins gate", () => {
  it("answers 403 {error: forbidden} to a missing or unlisted login on both bindings", async () => {
    const r = await start(["ada@example.com", "bob@example.com"]);
    for (const headers of [
      JSON_V1,
      { ...JSON_V1, "Tailscale-User-Login": "mallory@example.com" },
      { ...JSON_V1, "Tailscale-User-Login": "   " },
      { ...JSON_V1, "Tailscale-User-Login": "ada@example.com.evil" },
    ]) {
      const res = await post(`${r.url}/a2a/jsonrpc`, rpc("GetTask", { id: "t1" }), headers);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: "forbidden" });
      const rest = await fetch(`${r.url}/a2a/rest/tasks/t1`, { headers });
      expect(rest.status).toBe(403);
      expect(await rest.json()).toMatchObject({ error: "forbidden" });
    }
    expect(r.handler.calls).toEqual([]);
  });

  it("lets a listed login through, surrounding spaces trimmed", async () => {
    const r = await start(["ada@example.com"]);
    for (const login of ["ada@example.com", "  ada@example.com "]) {
      const headers = { ...JSON_V1, "Tailscale-User-Login": login };
      const res = await post(`${r.url}/a2a/jsonrpc`, rpc("GetTask", { id: "t1" }), headers);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: 1, result: { id: "t1" } });
    }
    const rest = await fetch(`${r.url}/a2a/rest/tasks/t2`, {
      headers: { ...V1, "Tailscale-User-Login": "ada@example.com" },
    });
    expect(rest.status).toBe(200);
    expect(r.handler.calls.map((c) => c.method)).toEqual(["getTask", "getTask", "getTask"]);
  });

  it.each([
    ["unset", undefined],
    ["empty", []],
  ])("does not gate at all when allowedLogins is %s", async (_label, allowed) => {
    const r = await start(allowed);
    const res = await post(`${r.url}/a2a/jsonrpc`, rpc("GetTask", { id: "t1" }));
    expect(res.status).toBe(200);
    expect(r.handler.calls).toHaveLength(1);
  });
});

describe("HTTP app: caller", () => {
  it("puts the login under state.caller and makes it the user; anonymous without it", async () => {
    const r = await start();
    await post(`${r.url}/a2a/jsonrpc`, rpc("GetTask", { id: "t1" }), {
      ...JSON_V1,
      "Tailscale-User-Login": " ada@example.com ",
    });
    await post(`${r.url}/a2a/jsonrpc`, rpc("GetTask", { id: "t2" }));
    await post(`${r.url}/a2a/jsonrpc`, rpc("GetTask", { id: "t3" }), {
      ...JSON_V1,
      "Tailscale-User-Login": "  ",
    });
    await fetch(`${r.url}/a2a/rest/tasks/t4`, {
      headers: { ...V1, "Tailscale-User-Login": "bob@example.com" },
    });
    const seen = r.handler.calls.map((c) => ({
      caller: c.context.state.get(CALLER_STATE_KEY),
      authenticated: c.context.user?.isAuthenticated,
      user: c.context.user?.isAuthenticated ? c.context.user.userName : undefined,
    }));
    expect(CALLER_STATE_KEY).toBe("caller");
    expect(seen).toEqual([
      // The user name is the caller's scope: prefixed, so no login can be the anonymous scope.
      { caller: "ada@example.com", authenticated: true, user: "login:ada@example.com" },
      { caller: "anonymous", authenticated: false, user: undefined },
      { caller: "anonymous", authenticated: false, user: undefined },
      { caller: "bob@example.com", authenticated: true, user: "login:bob@example.com" },
    ]);
  });

  it("logs every request with its caller, forbidden ones included", async () => {
    const r = await start(["ada@example.com"]);
    await post(`${r.url}/a2a/jsonrpc`, rpc("GetTask", { id: "t1" }), {
      ...JSON_V1,
      "Tailscale-User-Login": "ada@example.com",
    });
    await post(`${r.url}/a2a/jsonrpc`, rpc("GetTask", { id: "t1" }));
    const logs = await r.logged(2);
    const requests = logs.filter((l) => l.msg === "request");
    expect(requests.map((l) => [l.caller, l.status, l.path, l.method])).toEqual([
      ["ada@example.com", 200, "/a2a/jsonrpc", "POST"],
      ["anonymous", 403, "/a2a/jsonrpc", "POST"],
    ]);
  });
});

describe("HTTP app: request bodies", () => {
  const big = (bytes: number) => rpc("SendMessage", sendParams("x".repeat(bytes)));

  it("answers an oversize JSON-RPC body with a JSON 413 naming the limit", async () => {
    const r = await start();
    const res = await post(`${r.url}/a2a/jsonrpc`, big(BODY_LIMIT + 10));
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toEqual(
      rpcError(
        -32600,
        `Request body too large: the limit is ${BODY_LIMIT} bytes (server.bodyLimit).`,
      ),
    );
    expect(r.handler.calls).toEqual([]);
  });

  it.each(["application/json", "application/a2a+json"])(
    "answers an oversize REST body (%s) with a JSON 413 in the REST error shape",
    async (contentType) => {
      const r = await start();
      const body = JSON.stringify(sendParams("x".repeat(BODY_LIMIT + 10)));
      const res = await post(`${r.url}/a2a/rest/message:send`, body, {
        ...V1,
        "content-type": contentType,
      });
      expect(res.status).toBe(413);
      expect(res.headers.get("content-type")).toMatch(/json/);
      expect(await res.json()).toEqual(
        restError(
          413,
          `Request body too large: the limit is ${BODY_LIMIT} bytes (server.bodyLimit).`,
        ),
      );
      expect(r.handler.calls).toEqual([]);
    },
  );

  it("accepts bodies between the SDK's 100 kB default and the configured limit", async () => {
    const r = await start();
    const size = 150_000;
    const res = await post(`${r.url}/a2a/jsonrpc`, big(size));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ result: { message: { messageId: "reply-1" } } });
    for (const contentType of ["application/json", "application/a2a+json"]) {
      const rest = await post(
        `${r.url}/a2a/rest/message:send`,
        JSON.stringify(sendParams("y".repeat(size))),
        { ...V1, "content-type": contentType },
      );
      expect(rest.status).toBe(200);
    }
    const texts = r.handler.calls.map((c) => {
      const content = (c.params as SendMessageRequest).message?.parts[0]?.content;
      return content?.$case === "text" ? content.value.length : -1;
    });
    expect(texts).toEqual([size, size, size]);
  });

  it("answers malformed JSON with -32700 on JSON-RPC and a REST 400 on HTTP+JSON", async () => {
    const r = await start();
    const res = await post(`${r.url}/a2a/jsonrpc`, "{oops");
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toEqual(rpcError(-32700, "Invalid JSON payload."));
    const rest = await post(`${r.url}/a2a/rest/message:send`, "{oops");
    expect(rest.status).toBe(400);
    expect(rest.headers.get("content-type")).toMatch(/json/);
    expect(await rest.json()).toEqual(restError(400, "Invalid JSON payload."));
    expect(r.handler.calls).toEqual([]);
  });

  it("answers an unsupported charset with a JSON error, not an HTML page", async () => {
    const r = await start();
    const headers = { ...V1, "content-type": "application/json; charset=latin1" };
    const res = await post(`${r.url}/a2a/jsonrpc`, rpc("GetTask", { id: "t" }), headers);
    expect(await res.json()).toEqual(rpcError(-32600, "Unsupported body encoding."));
    const rest = await post(`${r.url}/a2a/rest/message:send`, "{}", headers);
    expect(rest.status).toBe(415);
    expect(await rest.json()).toMatchObject({
      error: { code: 415, message: "Unsupported body encoding." },
    });
  });
});

describe("HTTP app: content types", () => {
  it.each(["text/plain", "application/xml", "multipart/form-data; boundary=x"])(
    "answers a REST body sent as %s with HTTP 415 and the protocol's error body",
    async (contentType) => {
      const r = await start();
      const res = await post(`${r.url}/a2a/rest/message:send`, JSON.stringify(sendParams("hi")), {
        ...V1,
        "content-type": contentType,
      });
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({
        error: {
          code: 415,
          status: "INVALID_ARGUMENT",
          message: `Unsupported Content-Type "${contentType}"; expected application/json or application/a2a+json.`,
          details: [
            {
              "@type": "type.googleapis.com/google.rpc.ErrorInfo",
              reason: "CONTENT_TYPE_NOT_SUPPORTED",
              domain: "a2a-protocol.org",
            },
          ],
        },
      });
      expect(r.handler.calls).toEqual([]);
    },
  );

  it("answers a JSON-RPC body of another type with ContentTypeNotSupported (-32005)", async () => {
    const r = await start();
    const res = await post(`${r.url}/a2a/jsonrpc`, rpc("GetTask", { id: "t" }), {
      ...V1,
      "content-type": "text/plain",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject(
      rpcError(-32005, 'Unsupported Content-Type "text/plain"; expected application/json.'),
    );
    expect(r.handler.calls).toEqual([]);
  });

  it("turns a ContentTypeNotSupported from the handler into a REST 415 too", async () => {
    const r = await start();
    r.handler.sendMessage = () =>
      Promise.reject(new ContentTypeNotSupportedError("Message part 0 has media type 'x/y'."));
    const res = await post(`${r.url}/a2a/rest/message:send`, JSON.stringify(sendParams("hi")));
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({
      error: { code: 415, message: "Message part 0 has media type 'x/y'." },
    });
    // Other client errors keep the SDK's status.
    r.handler.sendMessage = () => Promise.reject(new UnsupportedOperationError("no"));
    const other = await post(`${r.url}/a2a/rest/message:send`, JSON.stringify(sendParams("hi")));
    expect(other.status).toBe(400);
  });
});

describe("HTTP app: logs", () => {
  it("logs a protocol error answer on the request's line; the SDK's own report of it, stackless, at debug", async () => {
    const r = await start(undefined, "debug");
    r.handler.sendMessageStream = () => failingStream(new TaskNotFoundError("Task not found: t9"));
    // An unsupported version (refused before the SDK) and a pre-stream error (the SDK
    // console.error()s it, stack and all).
    await post(`${r.url}/a2a/jsonrpc`, rpc("GetTask", { id: "t1" }), {
      "content-type": "application/json",
    });
    await post(`${r.url}/a2a/jsonrpc`, rpc("SendStreamingMessage", sendParams("hi")));
    await fetch(`${r.url}/a2a/rest/tasks/t1`, { headers: {} });
    const logs = await r.logged(4);
    const requests = logs.filter((l) => l.msg === "request");
    const version = versionRefusedMessage(undefined, false);
    expect(requests.map((l) => [l.level, l.status, l.error])).toEqual([
      [30, 200, { code: -32009, message: version }],
      [30, 200, { code: -32001, message: "Task not found: t9" }],
      [30, 400, { code: 400, message: version }],
    ]);
    const sdk = logs.filter((l) => l.source === "@a2a-js/sdk");
    expect(sdk.map((l) => [l.level, l.msg, l.error])).toEqual([
      [
        20,
        "Pre-stream error for request 1",
        { name: "TaskNotFoundError", message: "Task not found: t9" },
      ],
    ]);
    expect(JSON.stringify(logs)).not.toMatch(/\\n\s+at /);
  });
});
