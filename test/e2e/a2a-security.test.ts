/**
 * Who may call, and what each caller sees: identity headers only from the trusted proxy, bearer
 * tokens, and conversations isolated per caller. Real runtime, scripted model, real HTTP on
 * loopback; "another machine" is a client socket bound to 127.0.0.2.
 */
import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { connect, errorMessage } from "../../src/client/connect.js";
import {
  a2a,
  afterTool,
  asks,
  lastStatus,
  listRequest,
  reply,
  resultOf,
  says,
  sendForTask,
  sha256,
  toolUse,
  userMessage,
  type A2AHarness,
} from "../support/harness/index.js";
import { mappedSessionKeys } from "../support/harness/session-map.js";
import { expectUnknown } from "../support/a2a/isolation.js";

const TIMEOUT = 120_000;

afterEach(() => {
  delete process.env[OPS_ENV];
});

const V1 = { "A2A-Version": "1.0", "Content-Type": "application/json" };
const OPS_ENV = "CLAUDE_A2A_TEST_OPS_TOKEN";
const CI_TOKEN = "ci-token-0123456789";
const OPS_TOKEN = "ops-token-9876543210";
const TOKENS = [
  { name: "ci", sha256: sha256(CI_TOKEN) },
  { name: "ops", env: OPS_ENV },
];

interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: unknown;
}

/** One HTTP request from a chosen local address (127.0.0.2 plays another machine). */
function raw(
  url: string,
  o: { method?: string; body?: unknown; headers?: Record<string, string>; from?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: o.method ?? "POST", headers: o.headers, localAddress: o.from ?? "127.0.0.1" },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const textBody = Buffer.concat(chunks).toString("utf8");
          let body: unknown = textBody;
          try {
            body = JSON.parse(textBody);
          } catch {
            // not JSON: kept as text for the assertion to show
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
      },
    );
    req.on("error", reject);
    if (o.body !== undefined) req.write(JSON.stringify(o.body));
    req.end();
  });
}

const rpc = (method: string, params: unknown) => ({ jsonrpc: "2.0", id: 1, method, params });
const jsonRpcUrl = (h: A2AHarness) => `${h.server.url}/a2a/jsonrpc`;
const errorOf = (r: RawResponse) => (r.body as { error?: { code: number; message: string } }).error;

describe("identity headers are believed only from the trusted proxy", () => {
  it(
    "a forged Tailscale-User-Login from 127.0.0.2 is ignored; from 127.0.0.1 it is honoured",
    async () => {
      const h = await a2a({
        rules: [says("Hello", "Hi Ada.")],
        config: { server: { allowedLogins: ["ada@example.com"] } },
      });
      const ada = { ...V1, "Tailscale-User-Login": "ada@example.com" };
      const unknownTask = rpc("GetTask", { id: randomUUID() });

      // From the proxy's address the login is believed: the request reaches the handler.
      const proxied = await raw(jsonRpcUrl(h), { body: unknownTask, headers: ada });
      expect(proxied.status).toBe(200);
      expect(errorOf(proxied)?.code).toBe(-32001); // TaskNotFound: it got through the gate

      // The same headers from another peer: anonymous, so allowedLogins refuses it.
      const forged = await raw(jsonRpcUrl(h), {
        body: unknownTask,
        headers: ada,
        from: "127.0.0.2",
      });
      expect(forged.status).toBe(403);
      expect(forged.body).toMatchObject({ error: "forbidden" });

      // Ada's task, made through the proxy, is out of reach of the forger.
      const send = rpc("SendMessage", {
        message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: "Hello" }] },
      });
      const made = await raw(jsonRpcUrl(h), { body: send, headers: ada });
      const task = (made.body as { result: { task: { id: string; status: { state: string } } } })
        .result.task;
      expect(task.status.state).toBe("TASK_STATE_COMPLETED");
      const get = rpc("GetTask", { id: task.id });
      expect(
        (await raw(jsonRpcUrl(h), { body: get, headers: ada, from: "127.0.0.2" })).status,
      ).toBe(403);
      expect((await raw(jsonRpcUrl(h), { body: get, headers: ada })).body).toMatchObject({
        result: { id: task.id },
      });
    },
    TIMEOUT,
  );

  it(
    "without allowedLogins, a forged login from another peer is just the anonymous caller",
    async () => {
      const h = await a2a({
        rules: [says("Hello", "Hi.")],
      });
      const ada = { ...V1, "Tailscale-User-Login": "ada@example.com" };
      const send = rpc("SendMessage", {
        message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: "Hello" }] },
      });
      const made = await raw(jsonRpcUrl(h), { body: send, headers: ada });
      const taskId = (made.body as { result: { task: { id: string } } }).result.task.id;

      const forged = await raw(jsonRpcUrl(h), {
        body: rpc("GetTask", { id: taskId }),
        headers: ada,
        from: "127.0.0.2",
      });
      expect(errorOf(forged)?.code).toBe(-32001);
      // And the anonymous caller (the harness's client) does not see Ada's task either.
      await expect(
        h.client.getTask({ tenant: "", id: taskId, historyLength: undefined }),
      ).rejects.toThrow(/not found/i);

      // Logins named like the anonymous scope are not the anonymous caller.
      const anonymousTask = await h.send("Hello");
      for (const login of ["unknown", "anonymous"]) {
        const asLogin = await raw(jsonRpcUrl(h), {
          body: rpc("GetTask", { id: anonymousTask.id }),
          headers: { ...V1, "Tailscale-User-Login": login },
        });
        expect(errorOf(asLogin)?.code).toBe(-32001);
      }
    },
    TIMEOUT,
  );
});

describe("bearer tokens", () => {
  it(
    "every A2A call needs a configured token (401 with WWW-Authenticate otherwise); card and /healthz stay public",
    async () => {
      process.env[OPS_ENV] = OPS_TOKEN;
      const h = await a2a({
        rules: [says("Hello", "Hello, token holder.")],
        config: { server: { auth: { tokens: TOKENS } } },
      });
      const card = await raw(`${h.server.url}/.well-known/agent-card.json`, { method: "GET" });
      expect(card.status).toBe(200);
      expect(card.body).toMatchObject({
        securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: "Bearer" } } },
        securityRequirements: [{ schemes: { bearer: {} } }],
      });
      expect((await raw(`${h.server.url}/healthz`, { method: "GET" })).status).toBe(200);

      const get = rpc("GetTask", { id: randomUUID() });
      const none = await raw(jsonRpcUrl(h), { body: get, headers: V1 });
      expect(none.status).toBe(401);
      expect(none.headers["www-authenticate"]).toBe('Bearer realm="claude-a2a"');
      const wrong = await raw(jsonRpcUrl(h), {
        body: get,
        headers: { ...V1, Authorization: `Bearer ${CI_TOKEN}x` },
      });
      expect(wrong.status).toBe(401);
      expect(wrong.headers["www-authenticate"]).toContain('error="invalid_token"');
      const rest = await raw(`${h.server.url}/a2a/rest/tasks/${randomUUID()}`, {
        method: "GET",
        headers: { "A2A-Version": "1.0" },
      });
      expect(rest.status).toBe(401);
      expect((await raw(`${h.server.url}/metrics`, { method: "GET" })).status).toBe(401);
      expect(
        (
          await raw(`${h.server.url}/metrics`, {
            method: "GET",
            headers: { Authorization: `Bearer ${OPS_TOKEN}` },
          })
        ).status,
      ).toBe(200);
      expect(h.bench.model.messageRequests).toHaveLength(0);

      // The terminal client's reading of the official client's refusal.
      const tokenless = await connect(h.server.url);
      const refused = await tokenless
        .getTask({ tenant: "", id: randomUUID(), historyLength: undefined })
        .then(() => "no error", errorMessage);
      expect(refused).toMatch(/requires a bearer token.*--token or set A2A_TOKEN/);

      // The official client with a token (the terminal client's `connect`) works end to end.
      for (const token of [CI_TOKEN, OPS_TOKEN]) {
        const client = await connect(h.server.url, token);
        const task = await sendForTask(client, userMessage("Hello"));
        expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
        expect(resultOf(task)).toBe("Hello, token holder.");
      }
    },
    TIMEOUT,
  );
});

describe("isolation down to the conversation", () => {
  it(
    "two callers with one contextId get two conversations that neither see nor wait on each other",
    async () => {
      process.env[OPS_ENV] = OPS_TOKEN;
      const h = await a2a({
        rules: [
          says("The password is swordfish", "Noted."),
          says("What is the password?", "No idea."),
          ...asks("Paint the fence", { answer: /red/, then: "Painting it red." }),
          says("Still there?", "Yes."),
        ],
        config: { server: { auth: { tokens: TOKENS } } },
      });
      const alice = await connect(h.server.url, CI_TOKEN);
      const bob = await connect(h.server.url, OPS_TOKEN);
      const contextId = "shared";

      const told = await sendForTask(
        alice,
        userMessage("The password is swordfish", { contextId }),
      );
      expect(told.contextId).toBe(contextId);
      const asked = await sendForTask(bob, userMessage("What is the password?", { contextId }));
      expect(asked.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      const bobsRequest = h.bench.model.messageRequests.find((r) =>
        r.lastUserText.includes("What is the password?"),
      );
      expect(JSON.stringify(bobsRequest?.body)).not.toContain("swordfish");

      // Alice parks a question in the context; Bob's next turn there does not wait behind it.
      const parked = await sendForTask(alice, userMessage("Paint the fence", { contextId }));
      expect(parked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      const meanwhile = await sendForTask(bob, userMessage("Still there?", { contextId }));
      expect(meanwhile.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

      // Alice's task is, for Bob, exactly an unknown task, whatever the method.
      await expectUnknown(bob, parked.id, { text: "red", contextId });
      const bobsList = await bob.listTasks(listRequest(contextId));
      expect(bobsList.tasks.map((t) => t.id).sort()).toEqual([asked.id, meanwhile.id].sort());

      // Alice's parked task was untouched by all that, and answers normally.
      const answered = await sendForTask(
        alice,
        userMessage("red", { taskId: parked.id, contextId }),
      );
      expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(resultOf(answered)).toBe("Painting it red.");

      // Two conversations, two Claude sessions, two entries in the session map.
      expect(h.spawns()).toBe(2);
      await h.server.pool.closeAll();
      expect(await mappedSessionKeys(h.bench.sandbox.cwd)).toEqual([
        JSON.stringify(["token:ci", contextId]),
        JSON.stringify(["token:ops", contextId]),
      ]);
    },
    TIMEOUT,
  );
});

describe("the docs' permission example", () => {
  it(
    "git push prompts under the default settings, as docs/security.md shows; rm -rf build does not",
    async () => {
      const h = await a2a({
        rules: [
          {
            match: { lastUserText: "Clean the build", toolResult: false },
            reply: reply(toolUse("Bash", { command: "rm -rf build", description: "Remove build" })),
          },
          {
            match: { lastUserText: "Push the branch", toolResult: false },
            reply: reply(
              toolUse("Bash", { command: "git push origin main", description: "Push the branch" }),
            ),
          },
          afterTool(/[\s\S]*/, "Done."),
        ],
      });
      // The harness runs the documented defaults: permissionMode "acceptEdits".
      expect(h.config.claude.permissionMode).toBe("acceptEdits");
      const clean = await h.stream("Clean the build");
      expect(lastStatus(clean).state).toBe(TaskState.TASK_STATE_COMPLETED);

      const push = await h.stream("Push the branch");
      expect(lastStatus(push)).toEqual({
        state: TaskState.TASK_STATE_INPUT_REQUIRED,
        kind: "permission_request",
        text: "Claude wants to use Bash.",
        data: {
          kind: "permission_request",
          toolName: "Bash",
          input: { command: "git push origin main", description: "Push the branch" },
          decisionReason: "This command requires approval",
        },
      });
    },
    TIMEOUT,
  );
});
