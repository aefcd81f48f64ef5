/** Bad input gets a clear JSON error and changes nothing; the card stays public behind the gate. */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mappedSessionKeys } from "../support/harness/session-map.js";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { ClientFactory } from "@a2a-js/sdk/client";
import { versionRefusedMessage } from "../../src/contract/versions.js";
import {
  a2a,
  EVERY_TASK,
  freePort,
  reply,
  rpcBody,
  says,
  sendForTask,
  spawnServer,
  startTestBench,
  text,
  userMessage,
} from "../support/harness/index.js";

const v1 = { "content-type": "application/json", "A2A-Version": "1.0" };
const sendParams = (t: string) => ({
  message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text: t }] },
});

describe("A2A server: HTTP surface", () => {
  it("answers a missing A2A-Version header with VersionNotSupported (-32009)", async () => {
    const h = await a2a();
    const res = await fetch(`${h.server.url}/a2a/jsonrpc`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: rpcBody("GetTask", { id: "nope" }),
    });
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32009);
    expect(body.error.message).toBe(versionRefusedMessage(undefined, false));
    expect(body.error.message).toContain("`A2A-Version: 1.0`");
  });

  it("answers a body over the limit with a JSON 413, and creates no task", async () => {
    const h = await a2a({ config: { server: { bodyLimit: "64kb" } } });
    const res = await fetch(`${h.server.url}/a2a/jsonrpc`, {
      method: "POST",
      headers: v1,
      body: rpcBody("SendMessage", sendParams("x".repeat(70 * 1024))),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message: "Request body too large: the limit is 65536 bytes (server.bodyLimit).",
      },
    });
    const list = await h.client.listTasks(EVERY_TASK);
    expect(list.tasks).toEqual([]);
    expect(h.bench.model.requests).toEqual([]);
  });

  it("accepts a body between the SDK's 100 kB default and the configured limit", async () => {
    const h = await a2a({
      rules: [says("BIG:", "received")],
    });
    const task = await h.send(`BIG: ${"y".repeat(300 * 1024)}`);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("answers malformed JSON and an unknown method with JSON-RPC errors", async () => {
    const h = await a2a();
    const bad = await fetch(`${h.server.url}/a2a/jsonrpc`, {
      method: "POST",
      headers: v1,
      body: "{oops",
    });
    expect(await bad.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    const unknown = await fetch(`${h.server.url}/a2a/jsonrpc`, {
      method: "POST",
      headers: v1,
      body: rpcBody("NoSuchMethod", {}, 7),
    });
    expect(await unknown.json()).toMatchObject({ id: 7, error: { code: -32601 } });
  });

  it("rejects CancelTask of a finished task with TaskNotCancelable", async () => {
    const h = await a2a({ rules: [{ match: {}, reply: reply(text("ok")) }] });
    const task = await h.send("quick");
    await expect(
      h.client.cancelTask({ tenant: "", id: task.id, metadata: undefined }),
    ).rejects.toThrow(/not cancelable/i);
    const res = await fetch(`${h.server.url}/a2a/jsonrpc`, {
      method: "POST",
      headers: v1,
      body: rpcBody("CancelTask", { id: task.id }),
    });
    expect(await res.json()).toMatchObject({ error: { code: -32002 } });
  });

  it("gates the bindings on allowedLogins with 403 {error: forbidden}, but not the card", async () => {
    const h = await a2a({
      config: { server: { allowedLogins: ["ada@example.com", "bob@example.com"] } },
      rules: [{ match: {}, reply: reply(text("hello Ada")) }],
    });
    const card = await fetch(`${h.server.url}/.well-known/agent-card.json`);
    expect(card.status).toBe(200);
    const legacyCard = await fetch(`${h.server.url}/.well-known/agent-card`);
    expect(await legacyCard.json()).toEqual(await card.json());

    for (const headers of [v1, { ...v1, "Tailscale-User-Login": "mallory@example.com" }]) {
      const res = await fetch(`${h.server.url}/a2a/jsonrpc`, {
        method: "POST",
        headers,
        body: rpcBody("SendMessage", sendParams("hi")),
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: "forbidden" });
    }
    const ok = await fetch(`${h.server.url}/a2a/jsonrpc`, {
      method: "POST",
      headers: { ...v1, "Tailscale-User-Login": "ada@example.com" },
      body: rpcBody("SendMessage", sendParams("hi")),
    });
    const body = (await ok.json()) as {
      result: { task: { id: string; status: { state: string } } };
    };
    expect(body.result.task.status.state).toBe("TASK_STATE_COMPLETED");
    expect(h.bench.model.messageRequests).toHaveLength(1);

    // Tasks are scoped to their caller: another allowed login cannot see Ada's task.
    const asBob = await fetch(`${h.server.url}/a2a/jsonrpc`, {
      method: "POST",
      headers: { ...v1, "Tailscale-User-Login": "bob@example.com" },
      body: rpcBody("GetTask", { id: body.result.task.id }),
    });
    expect(await asBob.json()).toMatchObject({ error: { code: -32001 } });
    const asAda = await fetch(`${h.server.url}/a2a/jsonrpc`, {
      method: "POST",
      headers: { ...v1, "Tailscale-User-Login": "ada@example.com" },
      body: rpcBody("GetTask", { id: body.result.task.id }),
    });
    expect(await asAda.json()).toMatchObject({ result: { id: body.result.task.id } });
  });
});

describe("claude-a2a command line", () => {
  it("stops at startup with one clear message naming the file, the key and what is expected", async () => {
    const dir = await mkdtemp(join(tmpdir(), "claude-a2a-cli-"));
    try {
      await mkdir(join(dir, ".claude"));
      const file = join(dir, ".claude", "claude-a2a.config.json");
      await writeFile(file, JSON.stringify({ server: { port: "abc" }, claude: { maxTurns: 0 } }));
      const run = promisify(execFile)(
        process.execPath,
        ["--import", "tsx", "src/cli.ts", "--cwd", dir],
        { cwd: process.cwd() },
      );
      const err = (await run.then(
        () => undefined,
        (e: unknown) => e,
      )) as { code: number; stderr: string } | undefined;
      expect(err?.code).toBe(1);
      expect(err?.stderr).toContain(`Invalid config file ${file}:`);
      expect(err?.stderr).toContain(
        'server.port: expected an integer between 1 and 65535, got "abc"',
      );
      expect(err?.stderr).toContain("claude.maxTurns: expected a positive integer");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("serves a directory as a process, answers a task, and stops cleanly on SIGINT", async () => {
    const bench = await startTestBench([says("ping", "pong")]);
    const port = await freePort();
    const { cwd, env } = bench.sandbox;
    const server = await spawnServer({ cwd, port, env: { ...env, LOG_LEVEL: "info" } });
    try {
      const client = await new ClientFactory().createFromUrl(`http://127.0.0.1:${port}`);
      const task = await sendForTask(client, userMessage("ping"));
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      server.kill("SIGINT");
      expect((await server.exited).code).toBe(0);
      expect(server.output()).toContain('"msg":"stopping"');
      // The session map was written in the served directory's store.
      // Keyed by conversation: the (anonymous) caller's scope and the contextId.
      expect(await mappedSessionKeys(bench.sandbox.cwd)).toEqual([
        JSON.stringify(["unknown", task.contextId]),
      ]);
    } finally {
      server.kill("SIGKILL");
      await bench.close();
    }
  });

  it("says which address is taken when the port is in use, and exits 1", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as AddressInfo;
    const dir = await mkdtemp(join(tmpdir(), "claude-a2a-cli-"));
    try {
      const err = (await promisify(execFile)(
        process.execPath,
        ["--import", "tsx", "src/cli.ts", "--cwd", dir, "--port", String(port)],
        { cwd: process.cwd(), env: { ...process.env, LOG_LEVEL: "silent" } },
      ).then(
        () => undefined,
        (e: unknown) => e,
      )) as { code: number; stderr: string } | undefined;
      expect(err?.code).toBe(1);
      expect(err?.stderr).toBe(
        `claude-a2a: Cannot listen on 127.0.0.1:${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}\n`,
      );
    } finally {
      blocker.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
