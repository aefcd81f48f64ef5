/**
 * The hooks route on the real HTTP app over a stub request handler (127.0.0.1:0): where it is
 * mounted (a workspace's prefix, outside the auth gate and the workspace's callers), what the
 * handler is sent (the trigger's caller, the delivery id as idempotency key, the origin), and how
 * its answers and refusals come back.
 */
import { createHmac, randomUUID } from "node:crypto";
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { TaskState, type Message, type SendMessageRequest, type Task } from "@a2a-js/sdk";
import {
  STATE_HEADERS_KEY,
  type A2ARequestHandler,
  type ServerCallContext,
} from "@a2a-js/sdk/server";
import { pino } from "pino";
import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { buildAgentCard } from "../../../src/a2a/card/agent-card.js";
import { CallerLimitError } from "../../../src/a2a/handler/limit-error.js";
import { Authenticator } from "../../../src/auth/decide.js";
import { resolveConfig } from "../../../src/config/load.js";
import { createHttpApp } from "../../../src/http/app.js";
import { TriggerReceiver } from "../../../src/triggers/receiver.js";

const SECRET = "unit-secret";
const config = resolveConfig(
  {
    triggers: {
      fix: {
        kind: "webhook",
        verify: "github",
        secretEnv: "UNIT_SECRET",
        prompt: "{{issue.title}}",
        conversation: "subject",
        maxBodyBytes: 1000,
      },
    },
  },
  { file: "test.json", startDir: "/work" },
);
const card = buildAgentCard(config, { version: "0.0.0" });

interface Sent {
  readonly message: Message;
  readonly owner: string;
  readonly key: unknown;
}

/** A handler that starts a task per idempotency key, answers a repeat with the first, or throws. */
function stubHandler(fail?: () => Error): { handler: A2ARequestHandler; sent: Sent[] } {
  const sent: Sent[] = [];
  const byKey = new Map<unknown, Task>();
  const handler = {
    sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Task> {
      const message = params.message as Message;
      const headers = context.state.get(STATE_HEADERS_KEY) as Record<string, string>;
      const key = headers["idempotency-key"];
      sent.push({ message, owner: context.user?.userName ?? "", key });
      if (fail) return Promise.reject(fail());
      const known = byKey.get(key);
      if (known) return Promise.resolve(known);
      const task: Task = {
        id: randomUUID(),
        contextId: message.contextId || randomUUID(),
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: "" },
        artifacts: [],
        history: [message],
        metadata: {},
      };
      byKey.set(key, task);
      return Promise.resolve(task);
    },
  } as unknown as A2ARequestHandler;
  return { handler, sent };
}

let server: Server | undefined;
afterEach(async () => {
  if (server) await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function serve(handler: A2ARequestHandler, registry = new Registry()): Promise<string> {
  const hooks = new TriggerReceiver({
    triggers: config.triggers,
    env: { UNIT_SECRET: SECRET },
    handler,
    logger: pino({ level: "silent" }),
    registry,
  });
  const surface = { card, requestHandler: handler };
  const app = createHttpApp({
    bodyLimit: 100_000,
    // A login is required everywhere else: the hooks route does without.
    auth: new Authenticator({ allowedLogins: ["ada@example.com"] }),
    logger: pino({ level: "silent" }),
    workspaces: [
      { ...surface, name: "api", url: "http://x/agents/api", allows: () => false, hooks },
      { ...surface, name: "web", url: "http://x/agents/web", allows: () => false },
    ],
  });
  server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const issue = (number: number) =>
  JSON.stringify({
    action: "opened",
    issue: { number, title: `Issue ${number}` },
    repository: { full_name: "octo/widgets" },
  });

const post = (url: string, body: string, delivery: string = randomUUID()) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": "issues",
      "x-github-delivery": delivery,
      "x-hub-signature-256": `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`,
    },
    body,
  });

describe("POST /agents/<workspace>/hooks/<trigger>", () => {
  it("sends the task as trigger:<name>, keyed by the delivery, in the subject's conversation", async () => {
    const { handler, sent } = stubHandler();
    const url = await serve(handler);
    const first = await post(`${url}/agents/api/hooks/fix`, issue(7), "d-1");
    expect(first.status).toBe(202);
    const again = await post(`${url}/agents/api/hooks/fix`, issue(7), "d-1");
    expect(again.status).toBe(200);
    const other = await post(`${url}/agents/api/hooks/fix`, issue(7), "d-2");
    const [a, b, c] = (await Promise.all([first.json(), again.json(), other.json()])) as {
      outcome: string;
      taskId: string;
      contextId: string;
    }[];
    expect([a?.outcome, b?.outcome, c?.outcome]).toEqual(["started", "duplicate", "started"]);
    expect(b?.taskId).toBe(a?.taskId);
    // One issue, one conversation.
    expect(c?.contextId).toBe(a?.contextId);
    expect(sent.map((s) => [s.owner, s.key])).toEqual([
      ["trigger:fix", "trigger:fix:d-1"],
      ["trigger:fix", "trigger:fix:d-1"],
      ["trigger:fix", "trigger:fix:d-2"],
    ]);
    expect(sent[0]?.message.metadata).toEqual({
      origin: "trigger",
      trigger: "fix",
      eventId: "d-1",
    });
    const parts = sent[0]?.message.parts ?? [];
    expect(parts.map((p) => [p.content?.$case, p.mediaType, p.filename])).toEqual([
      ["text", "text/plain", ""],
      ["raw", "application/json", "payload.json"],
    ]);
  });

  it("is 404 for an unknown trigger, another workspace's, or at the root beside workspaces", async () => {
    const { handler, sent } = stubHandler();
    const url = await serve(handler);
    for (const path of ["/agents/api/hooks/nope", "/agents/web/hooks/fix", "/hooks/fix"]) {
      expect((await post(`${url}${path}`, issue(1))).status).toBe(404);
    }
    expect(sent).toEqual([]);
    // The bindings beside it are behind the gate.
    expect((await fetch(`${url}/agents/api/.well-known/agent-card.json`)).status).toBe(200);
    expect((await fetch(`${url}/agents/api/a2a/jsonrpc`, { method: "POST" })).status).toBe(403);
  });

  it("answers a body over maxBodyBytes 413, and counts it", async () => {
    const { handler, sent } = stubHandler();
    const registry = new Registry();
    const url = await serve(handler, registry);
    const big = JSON.stringify({ issue: { title: "x".repeat(2000) } });
    const res = await post(`${url}/agents/api/hooks/fix`, big);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ outcome: "malformed", trigger: "fix" });
    expect(sent).toEqual([]);
    expect(await registry.metrics()).toContain(
      'claude_a2a_trigger_firings_total{trigger="fix",outcome="malformed"} 1',
    );
  });

  it.each([
    [
      "a rate limit",
      () =>
        new CallerLimitError(
          "trigger:fix",
          { limit: "tasksPerMinute", max: 1, resetsAt: Date.now() + 1000 },
          Date.now(),
        ),
      429,
      "limited",
    ],
    ["any other refusal", () => new Error("the store is down"), 503, "refused"],
  ])(
    "answers %s of the handler with its reason, and starts nothing",
    async (_n, fail, status, outcome) => {
      const { handler } = stubHandler(fail);
      const url = await serve(handler);
      const res = await post(`${url}/agents/api/hooks/fix`, issue(3));
      expect(res.status).toBe(status);
      expect(await res.json()).toMatchObject({ outcome });
    },
  );
});
