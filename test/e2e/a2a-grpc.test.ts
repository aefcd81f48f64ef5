/**
 * The gRPC binding end to end: the SDK's own gRPC client (ClientFactory with GrpcTransportFactory)
 * reads the card over HTTP and talks gRPC to the same guarded request handler; the real Claude
 * Code runtime, the scripted model, loopback only. Past ~300 lines because it is the binding's
 * one end-to-end file: each test is one scenario of the issue's list, sharing one harness helper.
 */
import { randomUUID } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { status as Status } from "@grpc/grpc-js";
import { runClient, type ClientEnv } from "../../src/client/index.js";
import {
  a2a,
  afterTool,
  asks,
  describeStream,
  freePort,
  idsOf,
  lastStatus,
  listRequest,
  messageText,
  perTest,
  says,
  sendForTask,
  sendRequest,
  streamMessage,
  tokenEntries,
  userMessage,
  watch,
  writes,
  type HarnessOptions,
  type Rule,
} from "../support/harness/index.js";
import { AUDIENCE, ISSUER, makeKey, mint } from "../support/oidc.js";
import {
  captureLogs,
  GET_TASK,
  getTaskBytes,
  grpcRequestLine,
  rawGrpcClient,
  SEND_MESSAGE,
  sdkGrpcClient,
} from "../support/grpc.js";

const TIMEOUT = 120_000;

/** A harness with the gRPC binding on a free loopback port, and the SDK's gRPC client to it. */
async function startGrpc(o: HarnessOptions & { token?: string } = {}) {
  const port = await freePort();
  const h = await a2a({
    ...o,
    config: { ...o.config, server: { ...o.config?.server, grpc: { port } } },
  });
  const grpc = await sdkGrpcClient(h.server.url, o.token === undefined ? {} : { token: o.token });
  return { h, grpc, address: `127.0.0.1:${port}` };
}

const stream = (client: Client, text: string, ids = {}) => streamMessage(client, text, ids);

const PAINT: Rule[] = [
  ...asks("Paint the fence", { answer: /blue/, then: "Painting it blue.", name: "painted" }),
];

describe("the gRPC binding", () => {
  it(
    "sends, streams, lists and gets tasks, one log line per call, the card listing GRPC",
    async () => {
      const logs = captureLogs();
      const { h, grpc, address } = await startGrpc({
        logger: logs.logger,
        rules: [says("Hello", "Hi there."), says("Again", "Hi again.")],
      });
      const card = await grpc.getAgentCard();
      expect(card.supportedInterfaces.map((i) => [i.protocolBinding, i.url])).toEqual([
        ["JSONRPC", `${h.config.server.publicUrl}/a2a/jsonrpc`],
        ["HTTP+JSON", `${h.config.server.publicUrl}/a2a/rest`],
        ["GRPC", address],
      ]);
      expect(grpc.transport.protocolName).toBe("GRPC");
      expect(h.server.grpc?.address).toBe(address);
      const health = await fetch(`${h.server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({
        status: "ok",
        grpc: { address, tls: false, serving: true },
      });

      const first = await sendForTask(grpc, userMessage("Hello"));
      expect(first.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(messageText(first.history.at(-1))).toBe("Hi there.");

      const events = await stream(grpc, "Again", { contextId: first.contextId });
      expect(describeStream(events).at(-1)).toBe("status:completed");
      const second = idsOf(events);
      expect(second.contextId).toBe(first.contextId);

      const listed = await grpc.listTasks(listRequest(first.contextId));
      expect(listed.tasks.map((t) => t.id)).toEqual([second.taskId, first.id]);
      const got = await grpc.getTask({ tenant: "", id: first.id, historyLength: 0 });
      expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      // The same task over JSON-RPC: one handler, one store, one caller.
      expect((await h.client.getTask({ tenant: "", id: first.id, historyLength: 0 })).id).toBe(
        first.id,
      );

      const lines = await logs.waitFor(grpcRequestLine, 4);
      expect(lines.map((l) => [l.rpc, l.status, l.caller])).toEqual([
        ["SendMessage", "OK", "anonymous"],
        ["SendStreamingMessage", "OK", "anonymous"],
        ["ListTasks", "OK", "anonymous"],
        ["GetTask", "OK", "anonymous"],
      ]);
      expect(lines[0]).toMatchObject({ taskId: first.id, contextId: first.contextId });
      expect(lines[1]).toMatchObject({ taskId: second.taskId, contextId: first.contextId });
      expect(lines[3]).toMatchObject({ taskId: first.id });
      expect(typeof lines[0]?.ms).toBe("number");
    },
    TIMEOUT,
  );

  it(
    "answers a question and a permission prompt; SubscribeToTask follows the parked task",
    async () => {
      const { h, grpc } = await startGrpc();
      const outside = join(h.bench.sandbox.root, "outside", "report.txt");
      await mkdir(join(h.bench.sandbox.root, "outside"));
      h.bench.model.setRules([
        ...PAINT,
        writes("Save the report", outside, "report\n", "write-outside"),
        afterTool(/created successfully/, "Saved.", "saved"),
      ]);

      const asked = await stream(grpc, "Paint the fence");
      expect(lastStatus(asked)).toMatchObject({
        state: TaskState.TASK_STATE_INPUT_REQUIRED,
        kind: "ask_user_question",
        text: "Which colour do you prefer?",
      });
      const ids = idsOf(asked);
      const sub = watch(grpc.resubscribeTask({ tenant: "", id: ids.taskId }));
      await sub.first((e) => e.payload?.$case === "task");
      const answered = await stream(grpc, "blue", ids);
      expect(describeStream(answered).at(-1)).toBe("status:completed");
      const followed = describeStream(await sub.done);
      expect(followed[0]).toBe("task:input-required");
      expect(followed).toContain("status:working:resumed");
      expect(followed.at(-1)).toBe("status:completed");

      const permission = await stream(grpc, "Save the report", { contextId: ids.contextId });
      expect(lastStatus(permission).kind).toBe("permission_request");
      const allowed = await stream(grpc, "yes", idsOf(permission));
      expect(describeStream(allowed).at(-1)).toBe("status:completed");
      expect(await readFile(outside, "utf8")).toBe("report\n");
      expect(h.bench.model.unmatched).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "cancels a parked task; cancelling or answering it again is refused FAILED_PRECONDITION",
    async () => {
      const { h, grpc } = await startGrpc({ rules: PAINT });
      const asked = await stream(grpc, "Paint the fence");
      const { taskId } = idsOf(asked);
      const canceled = await grpc.cancelTask({ tenant: "", id: taskId, metadata: undefined });
      expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      await expect(
        grpc.cancelTask({ tenant: "", id: taskId, metadata: undefined }),
      ).rejects.toMatchObject({ status: Status.FAILED_PRECONDITION });
      await expect(
        grpc.sendMessage(sendRequest(userMessage("blue", idsOf(asked)))),
      ).rejects.toMatchObject({ status: Status.FAILED_PRECONDITION });
      const stored = await h.client.getTask({ tenant: "", id: taskId, historyLength: 0 });
      expect(stored.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    },
    TIMEOUT,
  );

  it(
    "authenticates by bearer metadata through the HTTP bindings' authenticator (static tokens and OIDC): none is UNAUTHENTICATED, another caller's task is unknown",
    async () => {
      const key = await makeKey("idp-key-1");
      const logs = captureLogs();
      const { h, grpc, address } = await startGrpc({
        logger: logs.logger,
        token: "ci-token-0123456789",
        rules: [says("Hello", "Hi.")],
        config: {
          server: {
            auth: {
              tokens: tokenEntries({ ci: "ci-token-0123456789", ops: "ops-token-9876543210" }),
              oidc: { issuer: ISSUER, audience: AUDIENCE, keys: [{ ...key.jwk, kty: "EC" }] },
            },
          },
        },
      });
      const task = await sendForTask(grpc, userMessage("Hello"));
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

      const anonymous = await sdkGrpcClient(h.server.url);
      await expect(
        anonymous.getTask({ tenant: "", id: task.id, historyLength: 0 }),
      ).rejects.toMatchObject({ status: Status.UNAUTHENTICATED });
      await expect(streamMessage(anonymous, "Hello")).rejects.toMatchObject({
        status: Status.UNAUTHENTICATED,
      });

      const ops = await sdkGrpcClient(h.server.url, { token: "ops-token-9876543210" });
      await expect(
        ops.getTask({ tenant: "", id: task.id, historyLength: 0 }),
      ).rejects.toMatchObject({ status: Status.NOT_FOUND });
      await expect(
        ops.cancelTask({ tenant: "", id: task.id, metadata: undefined }),
      ).rejects.toMatchObject({ status: Status.NOT_FOUND });
      expect((await ops.listTasks(listRequest(task.contextId))).tasks).toEqual([]);
      const raw = rawGrpcClient(address);
      perTest(raw);
      const wrong = await raw.unary(GET_TASK, getTaskBytes(task.id), {
        authorization: "Bearer not-a-token",
      });
      expect(wrong.error?.code).toBe(Status.UNAUTHENTICATED);

      // An OpenID Connect token over gRPC: its subject is a caller of its own, as over HTTP.
      const alice = await sdkGrpcClient(h.server.url, {
        token: await mint(key, { sub: "alice" }),
      });
      await expect(
        alice.getTask({ tenant: "", id: task.id, historyLength: 0 }),
      ).rejects.toMatchObject({ status: Status.NOT_FOUND });
      const own = await sendForTask(alice, userMessage("Hello"));
      expect(own.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      const expired = await raw.unary(GET_TASK, getTaskBytes(own.id), {
        authorization: `Bearer ${await mint(key, { sub: "alice" }, { expiresIn: -3600 })}`,
      });
      expect([expired.error?.code, expired.error?.details]).toEqual([
        Status.UNAUTHENTICATED,
        "The token has expired.",
      ]);

      const lines = await logs.waitFor(grpcRequestLine, 10);
      expect(lines.map((l) => [l.rpc, l.status, l.caller])).toEqual([
        ["SendMessage", "OK", "ci"],
        ["GetTask", "UNAUTHENTICATED", "anonymous"],
        ["SendStreamingMessage", "UNAUTHENTICATED", "anonymous"],
        ["GetTask", "NOT_FOUND", "ops"],
        ["CancelTask", "NOT_FOUND", "ops"],
        ["ListTasks", "OK", "ops"],
        ["GetTask", "UNAUTHENTICATED", "anonymous"],
        ["GetTask", "NOT_FOUND", "alice"],
        ["SendMessage", "OK", "alice"],
        ["GetTask", "UNAUTHENTICATED", "anonymous"],
      ]);
      expect(JSON.stringify(logs.lines)).not.toMatch(/ci-token|ops-token|not-a-token/);
    },
    TIMEOUT,
  );

  it(
    "answers a malformed or oversized request with a status and a log line, and keeps serving",
    async () => {
      const logs = captureLogs();
      const { grpc, address } = await startGrpc({
        logger: logs.logger,
        config: { server: { bodyLimit: "64kb" } },
        rules: [says("Still there?", "Yes.")],
      });
      const raw = rawGrpcClient(address);
      perTest(raw);
      const garbage = await raw.unary(SEND_MESSAGE, Buffer.from([0x0a, 0xff, 0xff, 0x01]));
      expect(garbage.error?.code).toBe(Status.INVALID_ARGUMENT);
      expect(garbage.error?.details).toMatch(/^The request is not a valid SendMessage request/);
      const empty = await raw.unary(SEND_MESSAGE, Buffer.alloc(0));
      expect(empty.error?.code).toBe(Status.INVALID_ARGUMENT);
      expect(empty.error?.details).toBe("message must be an object, not undefined");
      const huge = await raw.unary(GET_TASK, getTaskBytes("x".repeat(100 * 1024)));
      expect(huge.error?.code).toBe(Status.RESOURCE_EXHAUSTED);

      const task = await sendForTask(grpc, userMessage("Still there?"));
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      const lines = await logs.waitFor(grpcRequestLine, 4);
      expect(lines.map((l) => [l.rpc, l.status])).toEqual([
        ["SendMessage", "INVALID_ARGUMENT"],
        ["SendMessage", "INVALID_ARGUMENT"],
        ["GetTask", "RESOURCE_EXHAUSTED"],
        ["SendMessage", "OK"],
      ]);
      expect(lines[2]?.error).toMatchObject({ code: "RESOURCE_EXHAUSTED" });
    },
    TIMEOUT,
  );

  it(
    "the terminal client talks gRPC with --transport grpc; shutdown ends an open gRPC stream",
    async () => {
      const { h, grpc } = await startGrpc({
        rules: [...PAINT, says("Say hi", "Hi from gRPC.")],
      });
      let out = "";
      let err = "";
      const env: ClientEnv = {
        out: (t) => void (out += t),
        err: (t) => void (err += t),
        env: { XDG_CONFIG_HOME: join(h.bench.sandbox.root, "xdg") },
        stdoutIsTTY: false,
        readStdin: () => Promise.resolve(""),
        onInterrupt: () => () => undefined,
      };
      const code = await runClient(
        ["send", "--url", h.server.url, "--transport", "grpc", "Say hi"],
        env,
      );
      expect({ code, err }).toEqual({ code: 0, err: "" });
      expect(out).toContain("Hi from gRPC.");

      const asked = await stream(grpc, "Paint the fence");
      const sub = watch(grpc.resubscribeTask({ tenant: "", id: idsOf(asked).taskId }));
      await sub.first((e) => e.payload?.$case === "task");
      await h.server.close();
      // The stream ends (the server cancels the call, or it ends cleanly), and the task waiting
      // for an answer is kept for the next server, not failed (docs/tasks.md, "Answers across a
      // restart"): no terminal status reaches the stream.
      const ended = await sub.done.then(
        () => "ended",
        (err: unknown) => String((err as Error).message),
      );
      expect(ended).toMatch(/^ended$|Call cancelled/);
      const shape = describeStream(sub.items);
      expect(shape[0]).toBe("task:input-required");
      expect(shape.filter((e) => /^status:(failed|canceled|completed)/.test(e))).toEqual([]);
      await expect(
        grpc.getTask({ tenant: "", id: randomUUID(), historyLength: 0 }),
      ).rejects.toMatchObject({ status: Status.UNAVAILABLE });
    },
    TIMEOUT,
  );
});
