/**
 * What the gRPC binding shares with the HTTP ones, over a stub request handler on 127.0.0.1:0:
 * the server's one Authenticator (static tokens and OpenID Connect), the per-caller limit
 * refusal, the request span and the event extension.
 */
import { status as Status } from "@grpc/grpc-js";
import { decodeErrorInfo, decodeStatus, GRPC_STATUS_DETAILS_BIN } from "@a2a-js/sdk/errors/grpc";
import { beforeAll, describe, expect, it } from "vitest";
import { EVENTS_EXTENSION_URI } from "../../../src/contract/extension.js";
import { CallerLimitError } from "../../../src/a2a/handler/limit-error.js";
import {
  NOOP_SPAN,
  requestSpanOf,
  type TraceSpan,
  type Tracing,
} from "../../../src/tracing/tracing.js";
import { makeKey, mint, type TestKey } from "../../support/oidc.js";
import { GET_TASK, getTaskBytes, useStubServer, TOKEN } from "./support.js";

const start = useStubServer();

let key: TestKey;
let other: TestKey;
beforeAll(async () => {
  key = await makeKey("k-1");
  other = await makeKey("k-1"); // the same kid, another key: its tokens do not verify
});

describe("gRPC authentication through the shared Authenticator", () => {
  it("lets in an OIDC token as its subject and a static token as its name, on one server", async () => {
    const { stub, client } = await start({ tokens: true, oidcKeys: [key.jwk] });
    const jwt = await mint(key, { sub: "ada", scope: "a2a.call" });
    const viaOidc = await client.unary(GET_TASK, getTaskBytes("t-1"), {
      authorization: `Bearer ${jwt}`,
    });
    expect(viaOidc.error).toBeNull();
    const viaToken = await client.unary(GET_TASK, getTaskBytes("t-2"), {
      authorization: `Bearer ${TOKEN}`,
    });
    expect(viaToken.error).toBeNull();
    expect(stub.handler.calls.map((c) => c.context.user?.userName)).toEqual([
      "oidc:ada",
      "token:ci",
    ]);
  });

  it("answers each refusal with its gRPC code and the text every binding gives it", async () => {
    const { stub, client } = await start({ oidcKeys: [key.jwk] });
    const call = async (token: string) =>
      (await client.unary(GET_TASK, getTaskBytes("t-1"), { authorization: `Bearer ${token}` }))
        .error;
    const expired = await call(
      await mint(key, { sub: "ada", scope: "a2a.call" }, { expiresIn: -3600 }),
    );
    expect([expired?.code, expired?.details]).toEqual([
      Status.UNAUTHENTICATED,
      "The token has expired.",
    ]);
    const forged = await call(await mint(other, { sub: "ada", scope: "a2a.call" }));
    expect([forged?.code, forged?.details]).toEqual([
      Status.UNAUTHENTICATED,
      "The token's signature does not verify.",
    ]);
    const noScope = await call(await mint(key, { sub: "ada" }));
    expect([noScope?.code, noScope?.details]).toEqual([
      Status.PERMISSION_DENIED,
      "The token lacks the scope this agent requires: a2a.call.",
    ]);
    expect(stub.handler.calls).toEqual([]);
  });
});

describe("a request a per-caller limit refused", () => {
  it("is RESOURCE_EXHAUSTED with the refusal's message and ErrorInfo, not an internal error", async () => {
    const { stub, client } = await start();
    const refusal = new CallerLimitError(
      "unknown",
      { limit: "concurrentTasks", max: 1, working: 1 },
      Date.now(),
    );
    stub.handler.refuseWith = refusal;
    const answer = await client.unary(GET_TASK, getTaskBytes("t-1"));
    expect(answer.error?.code).toBe(Status.RESOURCE_EXHAUSTED);
    expect(answer.error?.details).toBe(refusal.message);
    expect(answer.error?.details).toMatch(/^Caller limit reached \(concurrentTasks\)/);
    const bin = answer.error?.metadata.get(GRPC_STATUS_DETAILS_BIN)[0];
    expect(Buffer.isBuffer(bin)).toBe(true);
    const detail = decodeStatus(bin as Buffer).details[0];
    expect(detail && decodeErrorInfo(detail.value)).toMatchObject({
      reason: "CONCURRENT_TASK_LIMIT_EXCEEDED",
      domain: "claude-a2a",
    });
    const [line] = await stub.logged("request");
    expect(line).toMatchObject({ status: "RESOURCE_EXHAUSTED" });
    expect(stub.logs.some((l) => l.msg === "internal error answered")).toBe(false);
  });
});

/** A tracing that records each request span: its name, carrier, attributes, failure and end. */
function recordingTracing() {
  const spans: {
    name: string;
    headers: Record<string, unknown>;
    attributes: Record<string, unknown>;
    failed?: string;
    ended: boolean;
    span: TraceSpan;
  }[] = [];
  const tracing: Tracing = {
    enabled: true,
    request: (name, headers, attributes = {}) => {
      const record = {
        name,
        headers: { ...headers },
        attributes: { ...attributes },
        ended: false,
        failed: undefined as string | undefined,
        span: NOOP_SPAN,
      };
      record.span = {
        ...NOOP_SPAN,
        set: (a) => Object.assign(record.attributes, a),
        fail: (m) => void (record.failed = m),
        end: () => void (record.ended = true),
      };
      spans.push(record);
      return record.span;
    },
    root: () => NOOP_SPAN,
    shutdown: () => Promise.resolve(),
  };
  return { tracing, spans };
}

describe("the request span of a gRPC call", () => {
  const parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

  it("is opened under the call's traceparent, put in the call context, and ended with its status", async () => {
    const { tracing, spans } = recordingTracing();
    const { stub, client } = await start({ tracing });
    const ok = await client.unary(GET_TASK, getTaskBytes("t-1"), { traceparent: parent });
    expect(ok.error).toBeNull();
    const missing = await client.unary(GET_TASK, getTaskBytes("unknown"));
    expect(missing.error?.code).toBe(Status.NOT_FOUND);
    await stub.logged("request", 2);
    expect(spans).toHaveLength(2);
    const [first, second] = spans;
    expect(first).toMatchObject({
      name: "A2A GetTask",
      headers: { traceparent: parent },
      attributes: {
        "a2a.binding": "grpc",
        "a2a.method": "GetTask",
        "a2a.caller": "unknown",
        "rpc.grpc.status_code": Status.OK,
      },
      failed: undefined,
      ended: true,
    });
    expect(requestSpanOf(stub.handler.calls[0]?.context.state)).toBe(first?.span);
    expect(second).toMatchObject({ headers: {}, ended: true });
    expect(second?.failed).toMatch(/^NOT_FOUND: Task not found/);
  });

  it("is ended when grpc-js itself refuses the call (a request over the size limit)", async () => {
    const { tracing, spans } = recordingTracing();
    const { stub, client } = await start({ tracing, maxMessageBytes: 1024 });
    const big = await client.unary(GET_TASK, getTaskBytes("x".repeat(4096)));
    expect(big.error?.code).toBe(Status.RESOURCE_EXHAUSTED);
    await stub.logged("request");
    expect(spans.map((s) => [s.ended, s.failed !== undefined])).toEqual([[true, true]]);
  });
});

describe("the event extension", () => {
  it("is activated from the call's a2a-extensions metadata, as from the A2A-Extensions header", async () => {
    const { stub, client } = await start();
    await client.unary(GET_TASK, getTaskBytes("t-1"), { "a2a-extensions": EVENTS_EXTENSION_URI });
    await client.unary(GET_TASK, getTaskBytes("t-2"));
    expect(stub.handler.calls.map((c) => c.context.activatedExtensions ?? [])).toEqual([
      [EVENTS_EXTENSION_URI],
      [],
    ]);
  });
});
