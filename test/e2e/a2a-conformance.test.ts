/**
 * A2A v1.0 conformance, by real HTTP on 127.0.0.1: card caching (§8.3), file artifacts as file
 * parts, input and output modes (ContentTypeNotSupported), HTTP+JSON content types (415), and
 * logs free of stack traces for client errors. Official client where it can say the request, raw
 * `fetch` where it cannot.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type Part, type SendMessageRequest } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, type Client } from "@a2a-js/sdk/client";
import {
  a2a,
  afterTool,
  collect,
  EVERY_TASK,
  freePort,
  reply,
  rpcBody,
  sendRequest,
  spawnServer,
  startTestBench,
  text,
  textPart,
  toolUse,
  userMessage,
  writes,
} from "../support/harness/index.js";

const V1 = { "A2A-Version": "1.0" };
const JSON_V1 = { ...V1, "content-type": "application/json" };
const wireMessage = (parts: unknown[]) => ({
  message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts },
});

const rawPart = (bytes: Buffer, mediaType: string, filename: string): Part => ({
  content: { $case: "raw", value: bytes },
  mediaType,
  filename,
  metadata: undefined,
});

const withOutputModes = (request: SendMessageRequest, modes: string[]): SendMessageRequest => ({
  ...request,
  configuration: {
    acceptedOutputModes: modes,
    taskPushNotificationConfig: undefined,
    historyLength: undefined,
    returnImmediately: false,
  },
});

async function listAll(client: Client) {
  const list = await client.listTasks(EVERY_TASK);
  return list.tasks;
}

const restClient = (url: string) =>
  new ClientFactory({
    ...ClientFactoryOptions.default,
    preferredTransports: ["HTTP+JSON"],
  }).createFromUrl(url);

describe("A2A conformance: the agent card", () => {
  it("is cacheable: Cache-Control, a strong ETag, Last-Modified, and 304s, on both paths", async () => {
    const h = await a2a();
    const etags = new Set<string>();
    for (const path of ["/.well-known/agent-card.json", "/.well-known/agent-card"]) {
      const url = `${h.server.url}${path}`;
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
      const etag = res.headers.get("etag") ?? "";
      expect(etag).toMatch(/^"[^"]+"$/);
      const lastModified = res.headers.get("last-modified") ?? "";
      expect(Date.parse(lastModified)).not.toBeNaN();
      etags.add(etag);
      const card = (await res.json()) as { defaultInputModes: string[] };
      expect(card.defaultInputModes).toContain("image/png");

      const byTag = await fetch(url, { headers: { "If-None-Match": etag } });
      expect(byTag.status).toBe(304);
      const byDate = await fetch(url, { headers: { "If-Modified-Since": lastModified } });
      expect(byDate.status).toBe(304);
      const stale = await fetch(url, { headers: { "If-None-Match": '"stale"' } });
      expect(stale.status).toBe(200);
    }
    expect(etags.size).toBe(1);
  });
});

describe("A2A conformance: file artifacts", () => {
  it("publishes a Write of notes.md as a raw file part with text/markdown and its bytes", async () => {
    const content = "# Notes\n\n- café ☕\n";
    const h = await a2a({
      rules: [
        {
          name: "write",
          match: { lastUserText: "Write the notes", toolResult: false },
          reply: reply(toolUse("Write", { file_path: "notes.md", content })),
        },
        afterTool(true, "Notes written.", "done"),
      ],
    });
    const events = await h.stream("Write the notes");
    const files = events.flatMap((e) =>
      e.payload?.$case === "artifactUpdate" && e.payload.value.artifact?.metadata?.kind === "file"
        ? [e.payload.value.artifact]
        : [],
    );
    expect(files).toHaveLength(1);
    expect(files[0]?.artifactId).toBe("file:notes.md");
    expect(files[0]?.metadata).toMatchObject({ path: "notes.md", mediaType: "text/markdown" });
    expect(files[0]?.parts).toEqual([
      {
        content: { $case: "raw", value: Buffer.from(content) },
        mediaType: "text/markdown",
        filename: "notes.md",
        metadata: undefined,
      },
    ]);

    // On the wire (GetTask over JSON-RPC): {raw: base64, mediaType, filename}, no text.
    const taskId = events[0]?.payload?.$case === "task" ? events[0].payload.value.id : "";
    const res = await fetch(`${h.server.url}/a2a/jsonrpc`, {
      method: "POST",
      headers: JSON_V1,
      body: rpcBody("GetTask", { id: taskId }),
    });
    const body = (await res.json()) as {
      result: { artifacts: { artifactId: string; parts: unknown[] }[] };
    };
    const stored = body.result.artifacts.find((a) => a.artifactId === "file:notes.md");
    expect(stored?.parts).toEqual([
      {
        raw: Buffer.from(content).toString("base64"),
        mediaType: "text/markdown",
        filename: "notes.md",
      },
    ]);
    expect(h.bench.model.unmatched).toEqual([]);
  });
});

describe("A2A conformance: input modes", () => {
  it("refuses a part of an unaccepted media type, writing nothing and creating no task", async () => {
    const h = await a2a({ rules: [{ match: {}, reply: reply(text("never")) }] });
    const message = userMessage([
      textPart("Listen to this"),
      rawPart(Buffer.from("ID3 fake mp3"), "audio/mpeg", "song.mp3"),
    ]);
    await expect(h.client.sendMessage(sendRequest(message))).rejects.toThrow(
      /Message part 1 has media type 'audio\/mpeg', which this agent does not accept\. Accepted input modes: text\/plain, application\/json, image\/png/,
    );
    // Streaming, and over REST (HTTP 415, the spec's mapping for ContentTypeNotSupported).
    await expect(collect(h.client.sendMessageStream(sendRequest(message)))).rejects.toThrow(
      /audio\/mpeg/,
    );
    const res = await fetch(`${h.server.url}/a2a/rest/message:send`, {
      method: "POST",
      headers: JSON_V1,
      body: JSON.stringify(
        wireMessage([{ text: "hi" }, { raw: "SUQz", mediaType: "audio/mpeg", filename: "a.mp3" }]),
      ),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({
      error: {
        code: 415,
        message: expect.stringContaining("'audio/mpeg'") as unknown,
        details: [expect.objectContaining({ reason: "CONTENT_TYPE_NOT_SUPPORTED" })],
      },
    });

    expect(await listAll(h.client)).toEqual([]);
    expect(h.bench.model.requests).toEqual([]);
    expect(h.spawns()).toBe(0);
    await expect(readdir(join(h.bench.sandbox.cwd, ".claude", "a2a-inbox"))).rejects.toThrow(
      /ENOENT/,
    );
  });

  it("narrows to agentCard.defaultInputModes: an image is refused when only text is listed", async () => {
    const h = await a2a({ config: { agentCard: { defaultInputModes: ["text/plain"] } } });
    const png = rawPart(Buffer.from([0x89, 0x50, 0x4e, 0x47]), "image/png", "a.png");
    await expect(
      h.client.sendMessage(sendRequest(userMessage([textPart("see"), png]))),
    ).rejects.toThrow(/'image\/png'.*Accepted input modes: text\/plain\./);
    expect(await listAll(h.client)).toEqual([]);
  });
});

describe("A2A conformance: HTTP+JSON content types", () => {
  it("answers a text/plain REST body with 415; takes application/json and application/a2a+json", async () => {
    const h = await a2a({ rules: [{ match: {}, reply: reply(text("ok")) }] });
    const send = (contentType: string, body: string) =>
      fetch(`${h.server.url}/a2a/rest/message:send`, {
        method: "POST",
        headers: { ...V1, "content-type": contentType },
        body,
      });
    const refused = await send("text/plain", "Say hello");
    expect(refused.status).toBe(415);
    expect(await refused.json()).toEqual({
      error: {
        code: 415,
        status: "INVALID_ARGUMENT",
        message:
          'Unsupported Content-Type "text/plain"; expected application/json or application/a2a+json.',
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: "CONTENT_TYPE_NOT_SUPPORTED",
            domain: "a2a-protocol.org",
          },
        ],
      },
    });
    for (const contentType of ["application/json", "application/a2a+json; charset=utf-8"]) {
      const ok = await send(contentType, JSON.stringify(wireMessage([{ text: "hi" }])));
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({
        task: { status: { state: "TASK_STATE_COMPLETED" } },
      });
    }
    // JSON-RPC refuses the same with its own code, over HTTP 200.
    const rpcRefused = await fetch(`${h.server.url}/a2a/jsonrpc`, {
      method: "POST",
      headers: { ...V1, "content-type": "text/plain" },
      body: rpcBody("SendMessage", wireMessage([{ text: "hi" }])),
    });
    expect(rpcRefused.status).toBe(200);
    expect(await rpcRefused.json()).toMatchObject({ error: { code: -32005 } });
    expect(await listAll(h.client)).toHaveLength(2);
  });
});

describe("A2A conformance: output modes", () => {
  it("refuses acceptedOutputModes that exclude text/plain before any run, on both bindings", async () => {
    const h = await a2a({ rules: [{ match: {}, reply: reply(text("never")) }] });
    const request = withOutputModes(sendRequest(userMessage("Draw me a cat")), ["image/png"]);
    await expect(h.client.sendMessage(request)).rejects.toThrow(
      /acceptedOutputModes \(image\/png\) excludes text\/plain/,
    );
    await expect(collect(h.client.sendMessageStream(request))).rejects.toThrow(
      /excludes text\/plain/,
    );
    const rest = await restClient(h.server.url);
    await expect(rest.sendMessage(request)).rejects.toThrow(/excludes text\/plain/);
    const raw = await fetch(`${h.server.url}/a2a/jsonrpc`, {
      method: "POST",
      headers: JSON_V1,
      body: rpcBody("SendMessage", {
        ...wireMessage([{ text: "Draw me a cat" }]),
        configuration: { acceptedOutputModes: ["image/png"] },
      }),
    });
    expect(await raw.json()).toMatchObject({ error: { code: -32005 } });
    expect(await listAll(h.client)).toEqual([]);
    expect(h.bench.model.requests).toEqual([]);
  });

  it("serves a client that accepts text/plain (or says nothing)", async () => {
    const h = await a2a({ rules: [{ match: {}, reply: reply(text("fine")) }] });
    for (const modes of [["text/plain"], ["text/*", "image/png"], []]) {
      const result = await h.client.sendMessage(
        withOutputModes(sendRequest(userMessage("hi")), modes),
      );
      expect("status" in result && result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    }
  });

  // Needs `FileDelivery` (content-modes.ts) wired where file artifacts are published
  // (src/a2a/server-task.ts, part of the task-lifecycle rewrite); enable it when that lands.
  it("gives a text/plain-only client no file artifacts, and lists their paths in the answer", async () => {
    const h = await a2a({
      rules: [
        writes("Write the notes", "notes.md", "# n\n", "write"),
        afterTool(true, "Notes written.", "done"),
      ],
    });
    const request = withOutputModes(sendRequest(userMessage("Write the notes")), ["text/plain"]);
    const events = await collect(h.client.sendMessageStream(request));
    const kinds = events.flatMap((e) =>
      e.payload?.$case === "artifactUpdate"
        ? [String(e.payload.value.artifact?.metadata?.kind)]
        : [],
    );
    expect(kinds).not.toContain("file");
    const taskId = events[0]?.payload?.$case === "task" ? events[0].payload.value.id : "";
    const task = await h.client.getTask({ tenant: "", id: taskId, historyLength: undefined });
    expect(task.artifacts.filter((a) => a.metadata?.kind === "file")).toEqual([]);
    const answer = task.history.find((m) => m.metadata?.kind === "result");
    expect(JSON.stringify(answer?.parts)).toContain("- notes.md");
  });
});

describe("A2A conformance: logs", () => {
  it("prints no stack trace for client errors: unknown task, bad version, malformed, refused", async () => {
    const bench = await startTestBench([]);
    const port = await freePort();
    const { cwd, env } = bench.sandbox;
    const server = await spawnServer({ cwd, port, env: { ...env, LOG_LEVEL: "info" } });
    try {
      const base = `http://127.0.0.1:${port}`;
      const post = (path: string, body: string, headers: Record<string, string> = JSON_V1) =>
        fetch(`${base}${path}`, { method: "POST", headers, body }).then((r) => r.text());
      const answers = [
        await post("/a2a/jsonrpc", rpcBody("GetTask", { id: "no-such-task" })),
        await post("/a2a/jsonrpc", rpcBody("SubscribeToTask", { id: "no-such-task" })),
        await post("/a2a/jsonrpc", rpcBody("CancelTask", { id: "no-such-task" })),
        await post("/a2a/jsonrpc", rpcBody("GetTask", { id: "x" }), {
          "content-type": "application/json",
        }),
        await post("/a2a/jsonrpc", rpcBody("SendMessage", { message: 5 })),
        await post("/a2a/jsonrpc", rpcBody("SendStreamingMessage", { message: { parts: [] } })),
        await post("/a2a/jsonrpc", "{oops"),
        await post(
          "/a2a/jsonrpc",
          rpcBody(
            "SendStreamingMessage",
            wireMessage([{ raw: "AAAA", mediaType: "video/mp4", filename: "v.mp4\nat evil" }]),
          ),
        ),
        await fetch(`${base}/a2a/rest/tasks/no-such-task`, { headers: V1 }).then((r) => r.text()),
        await fetch(`${base}/a2a/rest/tasks/no-such-task`).then((r) => r.text()),
        await post("/a2a/rest/message:send", "hello", { ...V1, "content-type": "text/plain" }),
      ];
      expect(answers.every((a) => a.includes('"error"'))).toBe(true);
      server.kill("SIGINT");
      expect((await server.exited).code).toBe(0);

      expect(server.stderr()).toBe("");
      const lines = server.stdout().split("\n").filter(Boolean);
      const logs = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.join("\n")).not.toMatch(/\\n\s+at /);
      // The harness's own readiness checks (GET /healthz) are not among the bad requests.
      const requests = logs.filter((l) => l.msg === "request" && l.path !== "/healthz");
      expect(requests).toHaveLength(answers.length);
      expect(requests.every((l) => l.level === 30 && typeof l.error === "object")).toBe(true);
      expect(logs.filter((l) => (l.level as number) >= 50)).toEqual([]);
    } finally {
      server.kill("SIGKILL");
      await bench.close();
    }
  });
});
