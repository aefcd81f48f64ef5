/**
 * A trigger's policy as a caller of its own (issue 51, docs/triggers.md "Policy"): an operator
 * sees its task (origin, trigger, event id in the metadata) and answers its permission prompt
 * when the trigger says "operator"; its daily budget stops the next firing with a log line and a
 * metric. Real runtime, scripted model, HTTP on 127.0.0.1.
 */
import { createHmac, randomUUID } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TaskState, type Task } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { connect } from "../../src/client/connect.js";
import {
  a2a,
  afterTool,
  dataPart,
  getTask,
  lastStatus,
  says,
  streamMessage,
  tokenEntries,
  writes,
} from "../support/harness/index.js";
import { captureLogs } from "../support/grpc.js";
import { WebhookReceiver } from "../support/webhook.js";

const TIMEOUT = 120_000;
const SECRET_ENV = "A2A_TEST_POLICY_SECRET";
const SECRET = "policy-secret-value";
const OPS = "ops-token-0123456789";
const NOW = Date.UTC(2025, 5, 1, 12, 0);

beforeAll(() => void (process.env[SECRET_ENV] = SECRET));
afterAll(() => void delete process.env[SECRET_ENV]);

const trigger = (extra: Record<string, unknown>) => ({
  kind: "webhook" as const,
  verify: "github" as const,
  secretEnv: SECRET_ENV,
  prompt: "{{issue.title}}",
  allowUnsandboxed: true,
  ...extra,
});

async function deliver(url: string, name: string, title: string): Promise<Response> {
  const body = JSON.stringify({
    action: "opened",
    issue: { number: 1, title, body: "", labels: [], author_association: "OWNER" },
    repository: { full_name: "octo/widgets" },
  });
  return fetch(`${url}/hooks/${name}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": "issues",
      "x-github-delivery": randomUUID(),
      "x-hub-signature-256": `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`,
    },
    body,
  });
}

/** The task once `done` says so (a bounded wait on the stored task, not a sleep to tune). */
async function until(ops: Client, id: string, done: (t: Task) => boolean): Promise<Task> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const task = await getTask(ops, id);
    if (done(task)) return task;
    if (Date.now() > deadline) throw new Error(`task ${id} stayed ${task.status?.state}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function start() {
  const logs = captureLogs();
  const h = await a2a({
    logger: logs.logger,
    clock: { now: () => NOW },
    config: {
      server: { auth: { tokens: tokenEntries({ ops: OPS }) }, operators: ["ops"] },
      triggers: {
        ask: trigger({ permissions: "operator" }),
        capped: trigger({ limits: { dailyBudgetUsd: 0.0003 } }),
        thread: trigger({ conversation: "subject" }),
      },
    },
  });
  const ops = await connect(h.server.url, OPS);
  if (!ops) throw new Error("no client");
  const metric = async (name: string, outcome: string) => {
    const res = await fetch(`${h.server.url}/metrics`, {
      headers: { authorization: `Bearer ${OPS}` },
    });
    const prefix = `claude_a2a_trigger_firings_total{trigger="${name}",outcome="${outcome}"`;
    const line = (await res.text()).split("\n").find((l) => l.startsWith(prefix));
    return line === undefined ? 0 : Number(line.split(" ").at(-1));
  };
  return { h, ops, logs, metric };
}

describe("a trigger's policy", () => {
  it(
    'with permissions "operator", an operator sees the trigger\'s task and answers its prompt',
    async () => {
      const { h, ops } = await start();
      const outside = join(h.bench.sandbox.root, "outside", "report.txt");
      await mkdir(join(h.bench.sandbox.root, "outside"));
      h.bench.model.setRules([
        writes("Save the report", outside, "report\n"),
        afterTool(/created successfully/, "Saved."),
      ]);
      const res = await deliver(h.server.url, "ask", "Save the report");
      expect(res.status).toBe(202);
      const { taskId, eventId } = (await res.json()) as { taskId: string; eventId: string };

      const parked = await until(
        ops,
        taskId,
        (t) => t.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED,
      );
      expect(parked.metadata).toMatchObject({
        origin: "trigger",
        trigger: "ask",
        eventId,
        owner: "trigger:ask",
      });
      const listed = await ops.listTasks({
        tenant: "",
        contextId: "",
        pageSize: 100,
        pageToken: "",
        historyLength: 0,
        statusTimestampAfter: undefined,
        includeArtifacts: false,
        status: 0,
      });
      expect(listed.tasks.map((t) => t.id)).toContain(taskId);

      const allow = dataPart({ kind: "permission_response", decision: "allow" });
      const answered = await streamMessage(ops, [allow], {
        taskId,
        contextId: parked.contextId,
      });
      expect(lastStatus(answered).state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(await readFile(outside, "utf8")).toBe("report\n");
    },
    TIMEOUT,
  );

  it(
    "its daily budget stops the next firing with a log line and a metric",
    async () => {
      const { h, ops, logs, metric } = await start();
      h.bench.model.setRules([says("Say hi", "Hi!")]);
      const first = await deliver(h.server.url, "capped", "Say hi");
      expect(first.status).toBe(202);
      const { taskId } = (await first.json()) as { taskId: string };
      await until(ops, taskId, (t) => t.status?.state === TaskState.TASK_STATE_COMPLETED);
      const asked = h.bench.model.messageRequests.length;

      const second = await deliver(h.server.url, "capped", "Say hi");
      expect(second.status).toBe(429);
      expect(await second.json()).toMatchObject({ outcome: "budget", trigger: "capped" });
      const [line] = await logs.waitFor((l) => l.trigger === "capped" && l.outcome === "budget");
      expect(line?.msg).toBe("trigger: daily budget reached, nothing started");
      expect(String(line?.reason)).toContain("dailyBudgetUsd");
      expect(await metric("capped", "budget")).toBe(1);
      expect(h.bench.model.messageRequests).toHaveLength(asked);
    },
    TIMEOUT,
  );

  it(
    "a trigger whose secret is unset, or a webhook without the sandbox, stops startup",
    async () => {
      await expect(
        a2a({ config: { triggers: { fix: trigger({ secretEnv: "A2A_TEST_UNSET_SECRET" }) } } }),
      ).rejects.toThrow(
        "triggers.fix: the environment variable A2A_TEST_UNSET_SECRET (secretEnv) is not set.",
      );
      await expect(
        a2a({ config: { triggers: { fix: trigger({ allowUnsandboxed: false }) } } }),
      ).rejects.toThrow(/triggers\.fix: a webhook's payload is written by strangers/);
    },
    TIMEOUT,
  );

  it(
    "its tasks go to the trigger's push-notification target, with its token",
    async () => {
      const receiver = await WebhookReceiver.start();
      process.env.A2A_TEST_PUSH_TOKEN = "push-token-value";
      try {
        const h = await a2a({
          rules: [says("Say hi", "Hi!")],
          config: {
            server: { pushAllowPrivateNetworks: true },
            triggers: {
              pushed: trigger({ push: { url: receiver.url, tokenEnv: "A2A_TEST_PUSH_TOKEN" } }),
            },
          },
        });
        const res = await deliver(h.server.url, "pushed", "Say hi");
        const { taskId } = (await res.json()) as { taskId: string };
        const completed = await receiver.waitFor((d) =>
          JSON.stringify(d.body).includes("TASK_STATE_COMPLETED"),
        );
        expect(JSON.stringify(completed.body)).toContain(taskId);
        expect(completed.headers["x-a2a-notification-token"]).toBe("push-token-value");
      } finally {
        delete process.env.A2A_TEST_PUSH_TOKEN;
        await receiver.close();
      }
    },
    TIMEOUT,
  );

  it(
    'with conversation "subject", two events about one issue continue one conversation',
    async () => {
      const { h, ops } = await start();
      h.bench.model.setRules([says("First look", "Looked."), says("Second look", "Again.")]);
      const first = (await (await deliver(h.server.url, "thread", "First look")).json()) as {
        taskId: string;
        contextId: string;
      };
      await until(ops, first.taskId, (t) => t.status?.state === TaskState.TASK_STATE_COMPLETED);
      const second = (await (await deliver(h.server.url, "thread", "Second look")).json()) as {
        taskId: string;
        contextId: string;
      };
      expect(second.taskId).not.toBe(first.taskId);
      expect(second.contextId).toBe(first.contextId);
      await until(ops, second.taskId, (t) => t.status?.state === TaskState.TASK_STATE_COMPLETED);
      // The second prompt reached the same Claude session: its request holds the first one.
      const request = await h.bench.model.waitForRequest((r) =>
        r.lastUserText.includes("Second look"),
      );
      expect(JSON.stringify(request.body)).toContain("First look");
    },
    TIMEOUT,
  );
});
