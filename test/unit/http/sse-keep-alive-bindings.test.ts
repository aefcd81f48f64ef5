/**
 * Keep-alive comments on every SSE answer of the HTTP surface: JSON-RPC and HTTP+JSON, v1.0 and
 * v0.3 (`server.compat.v03`), over a stub handler whose stream stays silent until the test has
 * seen a comment (event-driven: the interval is short, nothing waits on it).
 */
import type { StreamResponse } from "@a2a-js/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { buildAgentCard } from "../../../src/a2a/card/agent-card.js";
import { legacyAgentCardJson } from "../../../src/a2a/card/legacy-card.js";
import { resolveConfig } from "../../../src/config/load.js";
import { openSse } from "../../support/sse.js";
import { rpc, sendParams, start, stopApp, type Running } from "./support/stub-app.js";
import { JSON_V1, workingTask } from "./support/stub-handler.js";

afterEach(stopApp);

const compatCard = buildAgentCard(
  resolveConfig({ server: { compat: { v03: true } } }, { file: "t.json", startDir: "/work" }),
  { version: "0.0.0" },
);

/** The stub's streams: a task, silence until `release()`, then nothing more. */
function silentStreams(r: Running): { release: () => void } {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  async function* stream(): AsyncGenerator<StreamResponse, void, undefined> {
    yield { payload: { $case: "task", value: workingTask("t-1") } };
    await released;
  }
  Object.assign(r.handler, { sendMessageStream: stream, resubscribe: stream });
  return { release: () => release() };
}

async function expectComment(url: string, init: RequestInit, r: Running): Promise<void> {
  const { release } = silentStreams(r);
  const sse = await openSse(url, init);
  await sse.until((s) => s.comments.length >= 1);
  release();
  const blocks = await sse.finished();
  expect(blocks[0]?.data).toBeDefined();
  expect(sse.comments.every((b) => b.comment === "keep-alive" && b.id === undefined)).toBe(true);
}

describe("keep-alive comments on every binding", () => {
  it("JSON-RPC SendStreamingMessage and SubscribeToTask (v1.0)", async () => {
    const r = await start(undefined, "info", { keepAliveMs: 20 });
    const url = `${r.url}/a2a/jsonrpc`;
    const post = (body: string) => ({ method: "POST", headers: JSON_V1, body });
    await expectComment(url, post(rpc("SendStreamingMessage", sendParams("hi"))), r);
    await expectComment(url, post(rpc("SubscribeToTask", { id: "t-1" })), r);
  });

  it("HTTP+JSON message:stream and subscribe (v1.0)", async () => {
    const r = await start(undefined, "info", { keepAliveMs: 20 });
    const body = JSON.stringify(sendParams("hi"));
    await expectComment(
      `${r.url}/a2a/rest/message:stream`,
      { method: "POST", headers: JSON_V1, body },
      r,
    );
    await expectComment(
      `${r.url}/a2a/rest/tasks/t-1:subscribe`,
      { headers: { "A2A-Version": "1.0" } },
      r,
    );
  });

  it("v0.3 message/stream and tasks/resubscribe, JSON-RPC and REST", async () => {
    const r = await start(undefined, "info", {
      keepAliveMs: 20,
      card: compatCard,
      compatV03: { legacyCard: await legacyAgentCardJson(compatCard) },
    });
    const json = { "content-type": "application/json" };
    const message = {
      kind: "message",
      messageId: "m-1",
      role: "user",
      parts: [{ kind: "text", text: "hi" }],
    };
    await expectComment(
      `${r.url}/a2a/jsonrpc`,
      { method: "POST", headers: json, body: rpc("message/stream", { message }) },
      r,
    );
    await expectComment(
      `${r.url}/a2a/jsonrpc`,
      { method: "POST", headers: json, body: rpc("tasks/resubscribe", { id: "t-1" }) },
      r,
    );
    await expectComment(`${r.url}/a2a/rest/v1/tasks/t-1:subscribe`, {}, r);
  });
});
