/**
 * A2A v0.3 clients (`server.compat.v03`): the real v0.3 client (`@a2a-js/sdk` 0.3.14, the `v03`
 * alias) sends, streams, answers a question and a permission prompt, cancels and gets tasks,
 * under the same rules as v1.0 (one turn at a time, loop protection, per-caller scope); a
 * header-less request works as v0.3; with compat off, both get the documented -32009.
 */
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Task } from "v03";
import { ClientFactory } from "v03/client";
import { versionRefusedMessage } from "../../src/contract/versions.js";
import {
  a2a,
  afterTool,
  asks,
  COLOUR_QUESTION,
  perTest,
  postRpc,
  reply,
  says,
  streamsSlowly,
  tokenEntries,
  toolUse,
  userMessage,
  V03_JSON,
  writes,
  type Rule,
} from "../support/harness/index.js";
import {
  collectV03,
  connectV03,
  describeV03,
  lastV03Status,
  v03Data,
  v03Error,
  v03Ids,
  v03Message,
} from "../support/a2a/v03.js";
import { WebhookReceiver, withWebhook } from "../support/webhook.js";

const COMPAT = { server: { compat: { v03: true } } } as const;
const CI_TOKEN = "ci-token-0123456789";
const OPS_TOKEN = "ops-token-9876543210";
const TOKENS = tokenEntries({ ci: CI_TOKEN, ops: OPS_TOKEN });
/** Claude writes a file OUTSIDE the server's cwd: acceptEdits does not allow that by itself. */
const outsideWrite = (path: string): Rule =>
  writes("Save the report", path, "report\n", "write-outside");

describe("A2A v0.3 clients (server.compat.v03)", () => {
  it("sends, streams and gets tasks with the v0.3 client, over JSON-RPC and HTTP+JSON", async () => {
    const h = await a2a({
      config: COMPAT,
      rules: [
        says("Say hello", "Hello from Claude."),
        says("Say bye", "Bye."),
        says("Over REST", "REST works."),
      ],
    });
    const client = await connectV03(h.server.url);
    const sent = (await client.sendMessage({ message: v03Message("Say hello") })) as Task;
    expect(sent.kind).toBe("task");
    expect(sent.status.state).toBe("completed");
    const answer = sent.artifacts?.find((a) => a.metadata?.kind === "assistant_text");
    expect(answer?.parts).toEqual([{ kind: "text", text: "Hello from Claude." }]);

    // The stream: v0.3 events, our metadata.kind on each, `final` on the terminal status.
    const events = await collectV03(
      client.sendMessageStream({ message: v03Message("Say bye", { contextId: sent.contextId }) }),
    );
    const shape = describeV03(events);
    expect(shape[0]).toBe("task:submitted");
    expect(shape).toContain("artifact:assistant_text");
    expect(shape.slice(-2)).toEqual(["status:working:result", "status:completed"]);
    expect(lastV03Status(events).final).toBe(true);
    const { taskId, contextId } = v03Ids(events);
    // Same context, same Claude session: the conversation goes on.
    expect(contextId).toBe(sent.contextId);
    expect(h.spawns()).toBe(1);

    const got = await client.getTask({ id: taskId, historyLength: 10 });
    expect(got).toMatchObject({
      kind: "task",
      id: taskId,
      contextId,
      status: { state: "completed" },
    });
    expect(got.history?.[0]).toMatchObject({ kind: "message", role: "user" });

    // The v0.3 REST binding (`/v1/…` routes) over the same request handler.
    const rest = await connectV03(h.server.url, { transport: "HTTP+JSON" });
    const viaRest = (await rest.sendMessage({ message: v03Message("Over REST") })) as Task;
    expect(viaRest.status.state).toBe("completed");
    expect((await rest.getTask({ id: viaRest.id })).status.state).toBe("completed");
    // A v1.0 client sees the v0.3 client's tasks (same caller: anonymous on loopback).
    const v1 = await h.client.getTask({ tenant: "", id: taskId, historyLength: undefined });
    expect(v1.id).toBe(taskId);
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("answers a question: input-required with the data part, then the answer resumes it", async () => {
    const h = await a2a({
      config: COMPAT,
      rules: asks("Paint the fence", { answer: /blue/, then: "Blue it is.", name: "answered" }),
    });
    const client = await connectV03(h.server.url);
    const first = await collectV03(
      client.sendMessageStream({ message: v03Message("Paint the fence") }),
    );
    expect(lastV03Status(first)).toEqual({
      state: "input-required",
      final: false,
      kind: "ask_user_question",
      text: "Which colour do you prefer?",
      data: { kind: "ask_user_question", questions: [COLOUR_QUESTION] },
    });
    const ids = v03Ids(first);
    const second = await collectV03(client.sendMessageStream({ message: v03Message("blue", ids) }));
    expect(describeV03(second)).toContain("status:working:resumed");
    expect(describeV03(second).at(-1)).toBe("status:completed");
    const answered = h.bench.model.requests.find((r) => r.rule === "answered")?.request;
    expect(answered?.toolResults[0]?.content).toContain('"Which colour do you prefer?"="blue"');
  });

  it("answers a permission prompt with a v0.3 data part; a repeated denied request stops the task", async () => {
    const h = await a2a({ config: COMPAT });
    const outside = join(h.bench.sandbox.root, "outside", "report.txt");
    await mkdir(join(h.bench.sandbox.root, "outside"));
    h.bench.model.setRules([
      outsideWrite(outside),
      afterTool(/created successfully/, "Saved.", "written"),
    ]);
    const client = await connectV03(h.server.url);
    const first = await collectV03(
      client.sendMessageStream({ message: v03Message("Save the report") }),
    );
    expect(lastV03Status(first)).toMatchObject({
      state: "input-required",
      kind: "permission_request",
      data: { kind: "permission_request", toolName: "Write" },
    });
    const allow = v03Data({ kind: "permission_response", decision: "allow" });
    const second = await collectV03(
      client.sendMessageStream({ message: v03Message([allow], v03Ids(first)) }),
    );
    expect(describeV03(second).at(-1)).toBe("status:completed");
    expect(await readFile(outside, "utf8")).toBe("report\n");

    // Loop protection: denied, Claude asks for the very same write again, the task stops.
    const again = join(h.bench.sandbox.root, "outside", "again.txt");
    h.bench.model.setRules([
      writes("Save it again", again, "x\n"),
      {
        match: { toolResult: /The user denied this action/ },
        reply: reply(toolUse("Write", { file_path: again, content: "x\n" })),
      },
    ]);
    const ask = await collectV03(
      client.sendMessageStream({ message: v03Message("Save it again") }),
    );
    const deny = v03Data({ kind: "permission_response", decision: "deny", reason: "no" });
    const stopped = await collectV03(
      client.sendMessageStream({ message: v03Message([deny], v03Ids(ask)) }),
    );
    expect(lastV03Status(stopped)).toMatchObject({
      state: "failed",
      final: true,
      text: "Stopped: Claude requested the same denied permission again (Write).",
    });
    expect(describeV03(stopped)).not.toContain("status:input-required:permission_request");
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("refuses a message for a working task, cancels it, and refuses a second cancel", async () => {
    const h = await a2a({
      config: COMPAT,
      rules: [streamsSlowly("Write a long essay")],
    });
    const client = await connectV03(h.server.url);
    const events: unknown[] = [];
    let resolveStreaming: () => void = () => undefined;
    const streaming = new Promise<void>((resolve) => (resolveStreaming = resolve));
    const done = (async () => {
      for await (const e of client.sendMessageStream({
        message: v03Message("Write a long essay"),
      })) {
        events.push(e);
        if ((e as { kind: string }).kind === "artifact-update") resolveStreaming();
      }
    })();
    await streaming;
    const { taskId, contextId } = v03Ids(events);

    const refused = client.sendMessage({
      message: v03Message("change of plan", { taskId, contextId }),
    });
    expect(await v03Error(refused)).toEqual({
      code: -32004,
      message: `Task ${taskId} is still working; wait for input-required or send a new message without taskId.`,
    });

    const canceled = await client.cancelTask({ id: taskId });
    expect(canceled.status.state).toBe("canceled");
    await done;
    const shape = describeV03(events);
    expect(shape.at(-1)).toBe("status:canceled");
    expect(shape.filter((s) => s.startsWith("status:canceled"))).toHaveLength(1);
    expect((await client.getTask({ id: taskId })).status.state).toBe("canceled");
    expect(await v03Error(client.cancelTask({ id: taskId }))).toEqual({
      code: -32002,
      message: `Task ${taskId} is not cancelable: it has already ended (canceled).`,
    });
    expect((await v03Error(client.getTask({ id: "no-such-task" }))).code).toBe(-32001);
  });

  it("authenticates a v0.3 client like any other, and scopes its tasks to its token", async () => {
    const h = await a2a({
      config: { server: { compat: { v03: true }, auth: { tokens: TOKENS } } },
      rules: [says("Mine", "Yours.")],
    });
    const ci = await connectV03(h.server.url, { token: CI_TOKEN });
    const task = (await ci.sendMessage({ message: v03Message("Mine") })) as Task;
    expect(task.status.state).toBe("completed");
    const ops = await connectV03(h.server.url, { token: OPS_TOKEN });
    // Another caller's task does not exist for it.
    expect((await v03Error(ops.getTask({ id: task.id }))).code).toBe(-32001);
    expect((await v03Error(ops.cancelTask({ id: task.id }))).code).toBe(-32001);
    const anonymous = await connectV03(h.server.url);
    await expect(anonymous.getTask({ id: task.id })).rejects.toThrow(/401/);
    const res = await postRpc(h.server.url, "tasks/get", { id: task.id }, { headers: V03_JSON });
    expect(res.status).toBe(401);
  });

  it("delivers each webhook in the version it was registered with", async () => {
    const hook = perTest(await WebhookReceiver.start());
    const h = await a2a({
      config: { server: { compat: { v03: true }, pushAllowPrivateNetworks: true } },
      rules: [says("Notify me", "Done.")],
    });
    const client = await connectV03(h.server.url);
    const task = (await client.sendMessage({
      message: v03Message("Notify me"),
      configuration: { blocking: true, pushNotificationConfig: { url: hook.url, token: "t03" } },
    })) as Task;
    const delivery = await hook.waitFor(
      (d) => d.headers["x-a2a-notification-token"] === "t03" && d.body.status !== undefined,
    );
    // v0.3's push body: the bare task, `application/json`, not v1.0's StreamResponse.
    expect(delivery.headers["content-type"]).toBe("application/json");
    expect(delivery.body).toMatchObject({ kind: "task", id: task.id });

    const v1 = await h.client.sendMessage(withWebhook(userMessage("Notify me"), hook.url, "t10"));
    const v1Delivery = await hook.waitFor((d) => d.headers["x-a2a-notification-token"] === "t10");
    expect(v1Delivery.headers["content-type"]).toBe("application/a2a+json");
    expect(Object.keys(v1Delivery.body)).toEqual([
      expect.stringMatching(/^(task|statusUpdate|artifactUpdate)$/),
    ]);
    expect("id" in v1).toBe(true);
  });

  it("serves a header-less request (curl) as v0.3, the card in v0.3's shape", async () => {
    const h = await a2a({
      config: COMPAT,
      rules: [says("By hand", "Hand-made.")],
    });
    const card = await fetch(`${h.server.url}/.well-known/agent-card.json`);
    expect(card.headers.get("vary")).toMatch(/A2A-Version/i);
    expect(await card.json()).toMatchObject({
      protocolVersion: "0.3",
      url: `${h.config.server.publicUrl}/a2a/jsonrpc`,
      preferredTransport: "JSONRPC",
    });
    const res = await postRpc(
      h.server.url,
      "message/send",
      {
        message: {
          kind: "message",
          messageId: "m-1",
          role: "user",
          parts: [{ kind: "text", text: "By hand" }],
        },
      },
      { id: 7, headers: V03_JSON },
    );
    const body = (await res.json()) as { id: number; result: Task };
    expect(body.id).toBe(7);
    expect(body.result).toMatchObject({ kind: "task", status: { state: "completed" } });

    // A v1.0 method without the header: read as v0.3, where it does not exist; the answer says
    // what to send.
    const v1Name = await postRpc(
      h.server.url,
      "GetTask",
      { id: "x" },
      { id: 8, headers: V03_JSON },
    );
    const error = ((await v1Name.json()) as { error: { code: number; message: string } }).error;
    expect(error.code).toBe(-32601);
    expect(error.message).toContain("Send the header `A2A-Version: 1.0`");
    // An agent-role v0.3 message is refused like a v1.0 one, before any task exists.
    const agent = await postRpc(
      h.server.url,
      "message/send",
      { message: { kind: "message", messageId: "m-2", role: "agent", parts: [] } },
      { id: 9, headers: V03_JSON },
    );
    expect(((await agent.json()) as { error: { code: number } }).error.code).toBe(-32602);
  });
});

describe("A2A v0.3 clients, compat off (the default)", () => {
  it("answers a v0.3 client and a header-less request -32009, saying how to send 1.0", async () => {
    const h = await a2a();
    // The v1.0-only card has no interface a v0.3 client can use.
    await expect(new ClientFactory().createFromUrl(h.server.url)).rejects.toThrow(
      /No compatible transport found/,
    );
    // Given a v0.3 card by hand (one it kept from before), its calls are refused.
    const client = await new ClientFactory().createFromAgentCard({
      name: "old",
      description: "",
      version: "1",
      protocolVersion: "0.3",
      url: `${h.server.url}/a2a/jsonrpc`,
      preferredTransport: "JSONRPC",
      capabilities: { streaming: true },
      defaultInputModes: ["text/plain"],
      defaultOutputModes: ["text/plain"],
      skills: [],
    });
    const refused = client.sendMessage({ message: v03Message("hello") });
    await expect(refused).rejects.toThrow(versionRefusedMessage(undefined, false));
    await expect(client.getTask({ id: "x" })).rejects.toThrow(/server\.compat\.v03/);

    const res = await postRpc(h.server.url, "GetTask", { id: "x" }, { id: 3, headers: V03_JSON });
    const body = (await res.json()) as {
      error: { code: number; message: string; data: { reason?: string }[] };
    };
    expect(body.error.code).toBe(-32009);
    expect(body.error.message).toBe(versionRefusedMessage(undefined, false));
    expect(body.error.message).toContain("A2A-Version: 1.0");
    expect(body.error.message).toContain("server.compat.v03");
    expect(body.error.data).toEqual([expect.objectContaining({ reason: "VERSION_NOT_SUPPORTED" })]);
    expect(h.bench.model.requests).toEqual([]);
  });
});
