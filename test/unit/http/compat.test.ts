/**
 * v0.3 compatibility (`server.compat.v03`) and the event extension, on the HTTP surface with a
 * stub request handler: which requests reach the handler, in what form, and what the others
 * are answered.
 */
import { Role, type SendMessageRequest } from "@a2a-js/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { buildAgentCard } from "../../../src/a2a/card/agent-card.js";
import { CONTROL_EXTENSION_URI } from "../../../src/contract/control.js";
import { EVENTS_EXTENSION_URI } from "../../../src/contract/extension.js";
import { GENERATIONS_EXTENSION_URI } from "../../../src/contract/generations.js";
import { legacyAgentCardJson } from "../../../src/a2a/card/legacy-card.js";
import { versionRefusedMessage } from "../../../src/contract/versions.js";
import { CALLER_STATE_KEY } from "../../../src/http/app.js";
import { resolveConfig } from "../../../src/config/load.js";
import { post, rpc, sendParams, start, stopApp, type Running } from "./support/stub-app.js";
import { JSON_V1, V1 } from "./support/stub-handler.js";

afterEach(stopApp);

const JSON_ONLY = { "content-type": "application/json" };

const compatCard = buildAgentCard(
  resolveConfig({ server: { compat: { v03: true } } }, { file: "t.json", startDir: "/work" }),
  { version: "0.0.0" },
);

async function startCompat(level = "info"): Promise<Running> {
  return start(undefined, level, {
    card: compatCard,
    compatV03: { legacyCard: await legacyAgentCardJson(compatCard) },
  });
}

const legacySend = (message: Record<string, unknown>, id: number | string = 1) =>
  rpc(
    "message/send",
    {
      message: { kind: "message", messageId: "m-1", role: "user", ...message },
    },
    id,
  );

type RpcAnswer = {
  id: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: { reason?: string }[] };
};
const answer = async (res: Response) => (await res.json()) as RpcAnswer;

describe("compat off (the default): v1.0 only", () => {
  it.each([
    ["no A2A-Version header", undefined],
    ["an empty one", ""],
    ["A2A-Version: 0.3", "0.3"],
    ["A2A-Version: 2.0", "2.0"],
  ])("answers a request with %s -32009, saying what to send", async (_name, version) => {
    const r = await start();
    const headers = version === undefined ? JSON_ONLY : { ...JSON_ONLY, "A2A-Version": version };
    const res = await post(`${r.url}/a2a/jsonrpc`, rpc("GetTask", { id: "t1" }, 5), headers);
    const body = await answer(res);
    expect(res.status).toBe(200);
    expect(body.id).toBe(5);
    expect(body.error?.code).toBe(-32009);
    expect(body.error?.message).toBe(versionRefusedMessage(version || undefined, false));
    expect(body.error?.data).toEqual([
      expect.objectContaining({ reason: "VERSION_NOT_SUPPORTED" }),
    ]);
    expect(r.handler.calls).toEqual([]);
  });

  it("names the header to send and server.compat.v03 in the -32009 of a header-less request", () => {
    expect(versionRefusedMessage(undefined, false)).toBe(
      "This request has no A2A-Version header, which A2A reads as protocol version 0.3: this " +
        "server speaks A2A 1.0 only. Send the header `A2A-Version: 1.0` with A2A 1.0 requests " +
        "(methods such as SendMessage), or have the server's operator set server.compat.v03 to " +
        "true to serve A2A 0.3 clients too.",
    );
    expect(versionRefusedMessage("0.3", false)).toMatch(
      /^The requested A2A protocol version '0\.3' is not supported: .*server\.compat\.v03/,
    );
  });

  it("answers a header-less REST request 400 in the binding's error shape", async () => {
    const r = await start();
    const res = await fetch(`${r.url}/a2a/rest/tasks/t1`);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^application\/a2a\+json/);
    const body = (await res.json()) as { error: { message: string; details: unknown[] } };
    expect(body.error.message).toBe(versionRefusedMessage(undefined, false));
    expect(body.error.details).toEqual([
      expect.objectContaining({ reason: "VERSION_NOT_SUPPORTED" }),
    ]);
  });

  it("says a v0.3 method sent with A2A-Version: 1.0 is v0.3's, and what to use", async () => {
    const r = await start();
    const body = await answer(await post(`${r.url}/a2a/jsonrpc`, legacySend({ parts: [] })));
    expect(body.error).toEqual({
      code: -32601,
      message:
        "Method not found: message/send is an A2A 0.3 method, and this request says " +
        "`A2A-Version: 1.0`. Use SendMessage instead, or this server serves A2A 0.3 requests " +
        "only when server.compat.v03 is true.",
    });
  });

  it("serves the v1.0 card to everyone, without Vary", async () => {
    const r = await start();
    const res = await fetch(`${r.url}/.well-known/agent-card.json`);
    expect(res.headers.get("vary")).toBeNull();
    expect(await res.json()).not.toHaveProperty("protocolVersion");
  });
});

describe("compat on (server.compat.v03)", () => {
  it("gives a header-less v0.3 request to the handler in v1.0 form, with the caller, and answers in v0.3", async () => {
    const r = await startCompat();
    const res = await post(
      `${r.url}/a2a/jsonrpc`,
      legacySend({ parts: [{ kind: "text", text: "hi" }], contextId: "ctx-1" }, 9),
      { ...JSON_ONLY, "Tailscale-User-Login": "ada@example.com" },
    );
    const body = await answer(res);
    expect(body).toEqual({
      jsonrpc: "2.0",
      id: 9,
      result: {
        kind: "message",
        messageId: "reply-1",
        contextId: "ctx-1",
        role: "agent",
        parts: [{ kind: "text", text: "ok", metadata: {} }],
      },
    });
    const [call] = r.handler.calls;
    const params = call?.params as SendMessageRequest;
    expect(params.message).toMatchObject({
      messageId: "m-1",
      contextId: "ctx-1",
      role: Role.ROLE_USER,
      parts: [{ content: { $case: "text", value: "hi" } }],
    });
    expect(call?.context.requestedVersion).toBe("0.3");
    expect(call?.context.state.get(CALLER_STATE_KEY)).toBe("ada@example.com");
    expect(call?.context.user?.userName).toBe("login:ada@example.com");
    // The request's log line, as for v1.0.
    const [line] = (await r.logged(1)).filter((l) => l.msg === "request");
    expect(line).toMatchObject({
      caller: "ada@example.com",
      status: 200,
      rpc: "message/send",
      contextId: "ctx-1",
    });
  });

  it("still serves v1.0 requests, and A2A-Version: 0.3 as v0.3", async () => {
    const r = await startCompat();
    const v1 = await answer(await post(`${r.url}/a2a/jsonrpc`, rpc("GetTask", { id: "t1" })));
    expect(v1.result).toMatchObject({ id: "t1", status: { state: "TASK_STATE_WORKING" } });
    const v03 = await answer(
      await post(`${r.url}/a2a/jsonrpc`, rpc("tasks/get", { id: "t2" }), {
        ...JSON_ONLY,
        "A2A-Version": "0.3",
      }),
    );
    expect(v03.result).toMatchObject({ kind: "task", id: "t2", status: { state: "working" } });
    // A header-less request on a v1.0 REST path: the SDK serves it on its v1.0 routes.
    const rest = await fetch(`${r.url}/a2a/rest/tasks/t3`);
    expect(rest.status).toBe(200);
    expect(await rest.json()).toMatchObject({ id: "t3", status: { state: "TASK_STATE_WORKING" } });
    expect(r.handler.calls.map((c) => c.context.requestedVersion)).toEqual(["1.0", "0.3", "0.3"]);
  });

  it.each([
    [{ role: "agent", parts: [{ kind: "text", text: "hi" }] }, /message\.role must be "user"/],
    [{ parts: [] }, /message\.parts must be a non-empty array/],
    [{ parts: [{ kind: "text", text: 5 }] }, /parts\[0\]\.text must be a string, not number/],
    [
      { parts: [{ kind: "file", file: { bytes: "%%%" } }] },
      /parts\[0\]\.file\.bytes is not valid base64/,
    ],
    [{ parts: [{ kind: "data", data: "yes" }] }, /parts\[0\]\.data must be an object/],
    [{ parts: [{ kind: "image" }] }, /parts\[0\]\.kind must be "text", "file" or "data"/],
  ])("refuses a malformed v0.3 message before the handler: %j", async (message, why) => {
    const r = await startCompat();
    const body = await answer(await post(`${r.url}/a2a/jsonrpc`, legacySend(message), JSON_ONLY));
    expect(body.error?.code).toBe(-32602);
    expect(body.error?.message).toMatch(why);
    expect(r.handler.calls).toEqual([]);
  });

  it("takes every valid v0.3 part kind", async () => {
    const r = await startCompat();
    const parts = [
      { kind: "text", text: "hi" },
      { kind: "file", file: { bytes: "aGk=", name: "a.txt", mimeType: "text/plain" } },
      { kind: "file", file: { uri: "https://example.com/a.png" } },
      { kind: "data", data: { kind: "permission_response", decision: "allow" } },
    ];
    const body = await answer(await post(`${r.url}/a2a/jsonrpc`, legacySend({ parts }), JSON_ONLY));
    expect(body.error).toBeUndefined();
    const message = (r.handler.calls[0]?.params as SendMessageRequest).message;
    expect(message?.parts.map((p) => p.content?.$case)).toEqual(["text", "raw", "url", "data"]);
  });

  it("tells a header-less request with a v1.0 method to send A2A-Version: 1.0", async () => {
    const r = await startCompat();
    const body = await answer(await post(`${r.url}/a2a/jsonrpc`, rpc("ListTasks", {}), JSON_ONLY));
    expect(body.error).toEqual({
      code: -32601,
      message:
        "Method not found: ListTasks is an A2A 1.0 method, but this request has no " +
        "A2A-Version header, so it is read as A2A 0.3. Send the header `A2A-Version: 1.0` " +
        "(A2A 0.3 has no such method).",
    });
    const send = await answer(
      await post(`${r.url}/a2a/jsonrpc`, rpc("SendMessage", sendParams("hi")), JSON_ONLY),
    );
    expect(send.error?.message).toContain("its A2A 0.3 name is message/send");
    expect(r.handler.calls).toEqual([]);
  });

  it("refuses an unknown version -32009, naming both it serves", async () => {
    const r = await startCompat();
    const res = await post(`${r.url}/a2a/jsonrpc`, rpc("GetTask", { id: "t1" }), {
      ...JSON_ONLY,
      "A2A-Version": "0.2",
    });
    const body = await answer(res);
    expect(body.error?.code).toBe(-32009);
    expect(body.error?.message).toBe(versionRefusedMessage("0.2", true));
    expect(body.error?.message).toContain("Supported versions: 1.0, 0.3");
  });

  it("serves the v0.3 REST routes; a malformed v0.3 REST message gets v0.3's error body", async () => {
    const r = await startCompat();
    const message = { messageId: "m-1", role: "ROLE_USER", content: [{ text: "hi" }] };
    const sent = await post(`${r.url}/a2a/rest/v1/message:send`, JSON.stringify({ message }), {
      ...JSON_ONLY,
    });
    expect(sent.status).toBe(201);
    expect(sent.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await sent.json()).toMatchObject({
      message: { messageId: "reply-1", role: "ROLE_AGENT" },
    });
    const params = r.handler.calls[0]?.params as SendMessageRequest;
    expect(params.message?.parts.map((p) => p.content)).toEqual([{ $case: "text", value: "hi" }]);

    const empty = { ...message, content: [] };
    const refused = await post(
      `${r.url}/a2a/rest/v1/message:send`,
      JSON.stringify({ message: empty }),
      JSON_ONLY,
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      code: -32602,
      message: "message.content must be a non-empty array of parts",
    });
    expect(r.handler.calls).toHaveLength(1);
  });

  it("hides a server fault's message in a v0.3 REST answer, and logs it", async () => {
    const r = await startCompat();
    r.handler.getTask = () => Promise.reject(new Error("secret internal detail"));
    const res = await fetch(`${r.url}/a2a/rest/v1/tasks/t1`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ code: -32603, message: "Internal error." });
    const logs = await r.logged(2);
    expect(logs.find((l) => l.msg === "internal error answered")).toMatchObject({
      error: { message: "secret internal detail" },
    });
    expect(logs.find((l) => l.msg === "request")).toMatchObject({
      status: 500,
      error: { code: -32603, message: "Internal error." },
    });
  });

  it("serves the v0.3 card to a header-less request, the v1.0 one to a 1.0 request, Vary on both", async () => {
    const r = await startCompat();
    const legacy = await fetch(`${r.url}/.well-known/agent-card.json`);
    const v1 = await fetch(`${r.url}/.well-known/agent-card.json`, { headers: V1 });
    expect(legacy.headers.get("vary")).toBe("A2A-Version");
    expect(v1.headers.get("vary")).toBe("A2A-Version");
    expect(await legacy.json()).toMatchObject({
      protocolVersion: "0.3",
      preferredTransport: "JSONRPC",
    });
    expect(await v1.json()).not.toHaveProperty("protocolVersion");
    const etag = legacy.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(etag).not.toBe(v1.headers.get("etag"));
    const again = await fetch(`${r.url}/.well-known/agent-card.json`, {
      headers: { "If-None-Match": etag },
    });
    expect(again.status).toBe(304);
  });
});

describe("the event extension", () => {
  const requested = `https://example.com/other-extension, ${EVENTS_EXTENSION_URI}`;

  it("is activated by A2A-Extensions and echoed in the answer's header; ours only", async () => {
    const r = await start();
    const res = await post(`${r.url}/a2a/jsonrpc`, rpc("GetTask", { id: "t1" }), {
      ...JSON_V1,
      "A2A-Extensions": requested,
    });
    expect(res.headers.get("a2a-extensions")).toBe(EVENTS_EXTENSION_URI);
    const rest = await fetch(`${r.url}/a2a/rest/tasks/t1`, {
      headers: { ...V1, "A2A-Extensions": EVENTS_EXTENSION_URI },
    });
    expect(rest.headers.get("a2a-extensions")).toBe(EVENTS_EXTENSION_URI);
    expect(r.handler.calls.map((c) => [...(c.context.activatedExtensions ?? [])])).toEqual([
      [EVENTS_EXTENSION_URI],
      [EVENTS_EXTENSION_URI],
    ]);
  });

  it("changes nothing else: without it, the same answer and no header", async () => {
    const r = await start();
    const url = `${r.url}/a2a/jsonrpc`;
    const withIt = await post(url, rpc("GetTask", { id: "t1" }), {
      ...JSON_V1,
      "A2A-Extensions": EVENTS_EXTENSION_URI,
    });
    const without = await post(url, rpc("GetTask", { id: "t1" }));
    expect(without.headers.get("a2a-extensions")).toBeNull();
    expect(await without.json()).toEqual(await withIt.json());
    const other = await post(url, rpc("GetTask", { id: "t1" }), {
      ...JSON_V1,
      "A2A-Extensions": "https://example.com/other-extension",
    });
    expect(other.headers.get("a2a-extensions")).toBeNull();
  });

  it("is echoed as X-A2A-Extensions to a v0.3 request, which may send either header", async () => {
    const r = await startCompat();
    for (const header of ["X-A2A-Extensions", "A2A-Extensions"]) {
      const res = await post(`${r.url}/a2a/jsonrpc`, rpc("tasks/get", { id: "t1" }), {
        ...JSON_ONLY,
        [header]: EVENTS_EXTENSION_URI,
      });
      expect(res.headers.get("x-a2a-extensions")).toBe(EVENTS_EXTENSION_URI);
    }
  });

  it("is listed in the card, in both versions' shapes, beside the control extension (steer on by default)", async () => {
    const r = await startCompat();
    for (const headers of [V1, {}]) {
      const card = (await (
        await fetch(`${r.url}/.well-known/agent-card.json`, { headers })
      ).json()) as {
        capabilities: { extensions: { uri: string }[] };
      };
      expect(card.capabilities.extensions.map((e) => e.uri)).toEqual([
        EVENTS_EXTENSION_URI,
        CONTROL_EXTENSION_URI,
        GENERATIONS_EXTENSION_URI,
      ]);
    }
  });
});
