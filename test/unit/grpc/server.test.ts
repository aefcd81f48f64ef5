/**
 * The gRPC binding's server with a stub request handler: no Claude, only 127.0.0.1:0. What
 * reaches the handler, who it is from, what is refused before it, and the one log line per call.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { credentials, status as Status } from "@grpc/grpc-js";
import { decodeErrorInfo, decodeStatus, GRPC_STATUS_DETAILS_BIN } from "@a2a-js/sdk/errors/grpc";
import { A2AService } from "@a2a-js/sdk/server/grpc";
import { describe, expect, it } from "vitest";
import { CALLER_STATE_KEY } from "../../../src/http/app.js";
import { loadTls } from "../../../src/grpc/tls.js";
import { makeTestCert } from "../../support/tls.js";
import {
  GET_TASK,
  getTaskBytes,
  rawClient,
  SEND_MESSAGE,
  useStubServer,
  TOKEN,
} from "./support.js";

const start = useStubServer();

const reasonOf = (error: { metadata?: { get(k: string): unknown[] } } | null) => {
  const bin = error?.metadata?.get(GRPC_STATUS_DETAILS_BIN)[0];
  if (!Buffer.isBuffer(bin)) return undefined;
  const detail = decodeStatus(bin).details[0];
  return detail && decodeErrorInfo(detail.value).reason;
};

describe("the gRPC binding", () => {
  it("serves a call to the handler as the caller the token names, and logs it once", async () => {
    const { stub, client } = await start({ tokens: true });
    const answer = await client.unary(GET_TASK, getTaskBytes("t-1"), {
      authorization: `Bearer ${TOKEN}`,
    });
    expect(answer.error).toBeNull();
    const task = A2AService.getTask.responseDeserialize(answer.value as Buffer);
    expect(task.id).toBe("t-1");
    const [call] = stub.handler.calls;
    expect(call?.context.user?.userName).toBe("token:ci");
    expect(call?.context.user?.isAuthenticated).toBe(true);
    expect(call?.context.state.get(CALLER_STATE_KEY)).toBe("ci");
    const [line] = await stub.logged("request");
    expect(line).toMatchObject({
      path: GET_TASK,
      rpc: "GetTask",
      status: "OK",
      caller: "ci",
      taskId: "t-1",
      contextId: "ctx-1",
    });
    expect(line).not.toHaveProperty("error");
    expect(JSON.stringify(stub.logs)).not.toContain(TOKEN);
  });

  it("refuses a call without a token, or with a wrong one, UNAUTHENTICATED, before the handler", async () => {
    const { stub, client } = await start({ tokens: true });
    const none = await client.unary(GET_TASK, getTaskBytes("t-1"));
    expect(none.error?.code).toBe(Status.UNAUTHENTICATED);
    expect(none.error?.details).toBe("This agent requires Authorization: Bearer <token>.");
    const wrong = await client.unary(GET_TASK, getTaskBytes("t-1"), {
      authorization: "Bearer nope",
    });
    expect(wrong.error?.code).toBe(Status.UNAUTHENTICATED);
    expect(wrong.error?.details).toBe("The bearer token is not valid.");
    expect(stub.handler.calls).toEqual([]);
    const lines = await stub.logged("request", 2);
    expect(lines.map((l) => [l.status, l.caller])).toEqual([
      ["UNAUTHENTICATED", "anonymous"],
      ["UNAUTHENTICATED", "anonymous"],
    ]);
    expect(JSON.stringify(stub.logs)).not.toContain("nope");
  });

  it("refuses a login allowedLogins does not list PERMISSION_DENIED; lets a listed one in", async () => {
    const { stub, client } = await start({ allowedLogins: ["ada@example.com"] });
    const anonymous = await client.unary(GET_TASK, getTaskBytes("t-1"));
    expect(anonymous.error?.code).toBe(Status.PERMISSION_DENIED);
    const ada = await client.unary(GET_TASK, getTaskBytes("t-1"), {
      "tailscale-user-login": "ada@example.com",
    });
    expect(ada.error).toBeNull();
    expect(stub.handler.calls.map((c) => c.context.user?.userName)).toEqual([
      "login:ada@example.com",
    ]);
  });

  it("answers bytes that are not the request message INVALID_ARGUMENT, logs it, and keeps serving", async () => {
    const { stub, client } = await start();
    const garbage = await client.unary(GET_TASK, Buffer.from([0x0a, 0x05, 0x01]));
    expect(garbage.error?.code).toBe(Status.INVALID_ARGUMENT);
    expect(garbage.error?.details).toMatch(/^The request is not a valid GetTask request message/);
    expect(reasonOf(garbage.error)).toBe("INVALID_PARAMS");
    expect(stub.handler.calls).toEqual([]);
    const ok = await client.unary(GET_TASK, getTaskBytes("t-2"));
    expect(ok.error).toBeNull();
    const lines = await stub.logged("request", 2);
    expect(lines[0]).toMatchObject({
      rpc: "GetTask",
      status: "INVALID_ARGUMENT",
      error: { code: "INVALID_ARGUMENT" },
    });
    expect(lines[1]).toMatchObject({ rpc: "GetTask", status: "OK", taskId: "t-2" });
  });

  it("refuses a message the HTTP bindings refuse (an agent-role message) before the handler", async () => {
    const { stub, client } = await start();
    const bytes = A2AService.sendMessage.requestSerialize({
      tenant: "",
      message: {
        messageId: "m-1",
        contextId: "",
        taskId: "",
        role: 2,
        parts: [
          {
            content: { $case: "text", value: "hi" },
            mediaType: "",
            filename: "",
            metadata: undefined,
          },
        ],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: undefined,
      metadata: undefined,
    });
    const answer = await client.unary(SEND_MESSAGE, bytes);
    expect(answer.error?.code).toBe(Status.INVALID_ARGUMENT);
    expect(answer.error?.details).toMatch(/^message.role must be ROLE_USER/);
    expect(stub.handler.calls).toEqual([]);
  });

  it("answers a request over the size limit RESOURCE_EXHAUSTED, logs it, and keeps serving", async () => {
    const { stub, client } = await start({ maxMessageBytes: 1024 });
    const big = await client.unary(GET_TASK, getTaskBytes("x".repeat(4096)));
    expect(big.error?.code).toBe(Status.RESOURCE_EXHAUSTED);
    const ok = await client.unary(GET_TASK, getTaskBytes("t-3"));
    expect(ok.error).toBeNull();
    const lines = await stub.logged("request", 2);
    expect(lines.map((l) => [l.rpc, l.status])).toEqual([
      ["GetTask", "RESOURCE_EXHAUSTED"],
      ["GetTask", "OK"],
    ]);
    expect(stub.handler.calls).toHaveLength(1);
  });

  it("answers an A2A error as the SDK maps it, with its ErrorInfo", async () => {
    const { client } = await start();
    const answer = await client.unary(GET_TASK, getTaskBytes("unknown"));
    expect(answer.error?.code).toBe(Status.NOT_FOUND);
    expect(answer.error?.details).toBe("Task not found: unknown");
    expect(reasonOf(answer.error)).toBe("TASK_NOT_FOUND");
  });

  it("hides a server fault's text from the client and logs it as an error", async () => {
    const { stub, client } = await start();
    stub.handler.failWith = new Error("SQLITE_BUSY: database is locked at /secret/path");
    const answer = await client.unary(GET_TASK, getTaskBytes("t-4"));
    expect(answer.error?.code).toBe(Status.UNKNOWN);
    expect(answer.error?.details).toBe("Internal error.");
    const [fault] = await stub.logged("internal error answered");
    expect(fault?.level).toBe(50);
    expect(fault?.error).toEqual({ message: "SQLITE_BUSY: database is locked at /secret/path" });
    const [line] = await stub.logged("request");
    expect(line).toMatchObject({ status: "UNKNOWN", error: { message: "Internal error." } });
  });

  it("refuses another A2A version as the other bindings do, before the handler", async () => {
    const { stub, client } = await start();
    // The raw client sends a2a-version 1.0 unless told otherwise.
    const answer = await client.unary(GET_TASK, getTaskBytes("t-5"), { "a2a-version": "0.3" });
    expect(answer.error?.code).toBe(Status.FAILED_PRECONDITION);
    expect(answer.error?.details).toBe(
      "The requested A2A protocol version '0.3' is not supported. Supported versions: 1.0. " +
        "Send the metadata a2a-version: 1.0 with every call.",
    );
    expect(reasonOf(answer.error)).toBe("VERSION_NOT_SUPPORTED");
    expect(stub.handler.calls).toEqual([]);
  });

  it("reports itself in health and stops serving on drain", async () => {
    const { stub, client } = await start();
    expect(stub.server.health()).toEqual({
      address: stub.server.address,
      tls: false,
      serving: true,
    });
    await stub.server.drain();
    expect(stub.server.health().serving).toBe(false);
    const after = await client.unary(GET_TASK, getTaskBytes("t-6"));
    expect(after.error?.code).toBe(Status.UNAVAILABLE);
  });

  it("serves TLS with the configured key and certificate; a plaintext client gets no answer", async () => {
    const dir = await mkdtemp(join(tmpdir(), "a2a-grpc-tls-"));
    try {
      const cert = await makeTestCert(dir);
      const tls = await loadTls(cert, dir);
      const { stub } = await start({ tls });
      expect(stub.server.health().tls).toBe(true);
      const secure = rawClient(stub.server.address, credentials.createSsl(cert.cert));
      try {
        const answer = await secure.unary(GET_TASK, getTaskBytes("t-7"));
        expect(answer.error).toBeNull();
      } finally {
        secure.close();
      }
      const plainClient = rawClient(stub.server.address);
      const plain = await plainClient.unary(GET_TASK, getTaskBytes("t-8"));
      plainClient.close();
      expect(plain.error?.code).toBe(Status.UNAVAILABLE);
      expect(stub.handler.calls).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
