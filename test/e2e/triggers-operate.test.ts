/**
 * Operating triggers (issue 51, docs/triggers.md "Operating triggers"): ListTasks of one
 * trigger's tasks over the official client, as an operator and as a caller without the role.
 * Real runtime, scripted model, HTTP on loopback.
 */
import { execFile } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import { join } from "node:path";
import { TaskState, type Task } from "@a2a-js/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect } from "../../src/client/connect.js";
import { TASK_TRIGGER_HEADER } from "../../src/contract/triggers.js";
import { EVERY_TASK, reply, sharedA2A, text, tokenEntries } from "../support/harness/index.js";

const TIMEOUT = 120_000;
const SECRET_ENV = "A2A_TEST_OPERATE_SECRET";
const SECRET = "operate-secret-value-1";
beforeAll(() => void (process.env[SECRET_ENV] = SECRET));
afterAll(() => void delete process.env[SECRET_ENV]);

const TOKEN = { alice: "alice-token-0123456789", ops: "ops-token-0123456789" };

const server = sharedA2A({
  config: {
    server: { auth: { tokens: tokenEntries(TOKEN) }, operators: ["ops"] },
    triggers: {
      fix: {
        kind: "webhook",
        verify: "github",
        secretEnv: SECRET_ENV,
        prompt: "Fix issue #{{issue.number}}: {{issue.title}}",
        allowUnsandboxed: true,
      },
      other: {
        kind: "webhook",
        verify: "github",
        secretEnv: SECRET_ENV,
        prompt: "Other: {{issue.title}}",
        allowUnsandboxed: true,
      },
    },
  },
  client: { token: TOKEN.alice },
});

/** A signed GitHub `issues` delivery to a trigger; its task's id. */
async function deliver(url: string, trigger: string, title: string): Promise<string> {
  const body = JSON.stringify({ action: "opened", issue: { number: 7, title } });
  const signature = createHmac("sha256", SECRET).update(body).digest("hex");
  const res = await fetch(`${url}/hooks/${trigger}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": "issues",
      "x-github-delivery": randomUUID(),
      "x-hub-signature-256": `sha256=${signature}`,
    },
    body,
  });
  expect(res.status).toBe(202);
  return ((await res.json()) as { taskId: string }).taskId;
}

const ENDED = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

/** Until each task has ended (bounded). */
async function allEnded(
  client: { getTask(p: { tenant: string; id: string; historyLength: number }): Promise<Task> },
  ids: readonly string[],
): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (const id of ids) {
    for (;;) {
      const task = await client.getTask({ tenant: "", id, historyLength: 0 });
      if (task.status !== undefined && ENDED.has(task.status.state)) break;
      if (Date.now() > deadline) throw new Error(`task ${id} did not end within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

const byTrigger = (name: string) => ({ serviceParameters: { [TASK_TRIGGER_HEADER]: name } });

describe("ListTasks of one trigger's tasks", () => {
  it(
    "an operator lists only that trigger's tasks; a caller without the role none",
    async () => {
      const h = server([
        { match: { lastUserText: "Gauge" }, reply: reply(text("Looked at the gauge.")) },
        { match: { lastUserText: "Lamp" }, reply: reply(text("Looked at the lamp.")) },
        { match: { lastUserText: "plain question" }, reply: reply(text("A plain answer.")) },
      ]);
      const ops = await connect(h.server.url, TOKEN.ops);
      if (!ops) throw new Error("no client");
      const fixTask = await deliver(h.server.url, "fix", "Gauge reads zero");
      const otherTask = await deliver(h.server.url, "other", "Lamp is off");
      const own = await h.send("A plain question");
      expect(own.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

      const fixOnly = await ops.listTasks(EVERY_TASK, byTrigger("fix"));
      expect(fixOnly.tasks.map((t) => t.id)).toEqual([fixTask]);
      expect(fixOnly.tasks[0]?.metadata).toMatchObject({
        origin: "trigger",
        trigger: "fix",
        owner: "trigger:fix",
      });
      const otherOnly = await ops.listTasks(EVERY_TASK, byTrigger("other"));
      expect(otherOnly.tasks.map((t) => t.id)).toEqual([otherTask]);
      // Without the filter the operator sees every caller's tasks, Alice's among them.
      const every = await ops.listTasks(EVERY_TASK);
      expect(every.tasks.map((t) => t.id)).toEqual(
        expect.arrayContaining([fixTask, otherTask, own.id]),
      );

      // Alice has no operator role: a trigger's tasks are not hers.
      const alice = await h.client.listTasks(EVERY_TASK, byTrigger("fix"));
      expect(alice.tasks).toEqual([]);
      expect((await h.client.listTasks(EVERY_TASK)).tasks.map((t) => t.id)).toEqual([own.id]);

      await expect(ops.listTasks(EVERY_TASK, byTrigger("No Such!"))).rejects.toThrow(
        /A2A-Task-Trigger must be a trigger's name/,
      );
    },
    TIMEOUT,
  );
});

const asCaller = (token?: string): Record<string, string> =>
  token === undefined ? {} : { authorization: `Bearer ${token}` };
const getTriggers = (url: string, token?: string) =>
  fetch(`${url}/triggers`, { headers: asCaller(token) });
const fireNow = (url: string, name: string, token?: string) =>
  fetch(`${url}/triggers/${name}/fire`, { method: "POST", headers: asCaller(token) });

async function firings(url: string, trigger: string, outcome: string): Promise<number> {
  const res = await fetch(`${url}/metrics`, { headers: asCaller(TOKEN.ops) });
  const line = (await res.text())
    .split("\n")
    .find((l) =>
      l.startsWith(`claude_a2a_trigger_firings_total{trigger="${trigger}",outcome="${outcome}"`),
    );
  return line === undefined ? 0 : Number(line.split(" ").at(-1));
}

describe("the operator's triggers endpoints", () => {
  it(
    "lists the triggers, fires one now as a delivery would, and refuses others",
    async () => {
      const h = server([
        {
          match: { lastUserText: "Fix issue #(none): (none)" },
          reply: reply(text("Ran by hand.")),
        },
      ]);
      const ops = await connect(h.server.url, TOKEN.ops);
      if (!ops) throw new Error("no client");
      const fixTasks = async () =>
        (await ops.listTasks(EVERY_TASK, byTrigger("fix"))).tasks.map((t) => t.id);

      // Not an operator: 403, whatever the trigger; nothing starts.
      const before = await fixTasks();
      // The last firing after a restart is the newest status: an earlier test's task still
      // running (or failed by the restart) would be newer than this test's.
      await allEnded(ops, before);
      const refused = await getTriggers(h.server.url, TOKEN.alice);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ error: "forbidden" });
      expect((await fireNow(h.server.url, "fix", TOKEN.alice)).status).toBe(403);
      expect((await fireNow(h.server.url, "nope", TOKEN.alice)).status).toBe(403);
      expect((await getTriggers(h.server.url)).status).toBe(401);
      // An unknown trigger: 404.
      const unknown = await fireNow(h.server.url, "nope", TOKEN.ops);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ error: "not_found", message: 'No trigger "nope".' });
      expect((await fixTasks()).sort()).toEqual([...before].sort());

      const startedBefore = await firings(h.server.url, "fix", "started");
      const fired = await fireNow(h.server.url, "fix", TOKEN.ops);
      expect(fired.status).toBe(202);
      const answer = (await fired.json()) as { outcome: string; taskId: string; eventId: string };
      expect(answer).toMatchObject({ outcome: "started", trigger: "fix" });
      expect(answer.eventId).toMatch(/^manual-/);
      // No payload: the payload's variables read "(none)".
      const request = await h.bench.model.waitForRequest((r) =>
        r.lastUserText.includes("Fix issue #(none): (none)"),
      );
      expect(request.lastUserText).toContain('started by the webhook trigger "fix"');
      expect(await firings(h.server.url, "fix", "started")).toBe(startedBefore + 1);
      // ListTasks orders by the latest status: an earlier task still finishing may come first.
      expect((await fixTasks()).sort()).toEqual([answer.taskId, ...before].sort());
      const task = await ops.getTask({ tenant: "", id: answer.taskId, historyLength: 0 });
      expect(task.metadata).toMatchObject({
        origin: "trigger",
        trigger: "fix",
        eventId: answer.eventId,
      });

      const listed = (await (await getTriggers(h.server.url, TOKEN.ops)).json()) as {
        triggers: { name: string; lastFiring?: { outcome: string; taskId?: string } }[];
      };
      expect(listed.triggers.map((t) => t.name)).toEqual(["fix", "other"]);
      expect(listed.triggers[0]).toMatchObject({
        name: "fix",
        kind: "webhook",
        path: "/hooks/fix",
        lastFiring: { outcome: "started", taskId: answer.taskId },
      });
      expect(listed.triggers[0]).not.toHaveProperty("nextFiring");

      // After a restart the process has seen no firing: the newest task tells the last one.
      await h.restart();
      const again = (await (await getTriggers(h.server.url, TOKEN.ops)).json()) as typeof listed;
      expect(again.triggers[0]?.lastFiring).toMatchObject({
        outcome: "started",
        taskId: answer.taskId,
      });
    },
    TIMEOUT,
  );
});

/** `node dist/cli.js <argv>` with the server's URL and a token; its exit code and output. */
async function cli(url: string, token: string, argv: string[]) {
  return new Promise<{ code: number; out: string; err: string }>((resolve) => {
    execFile(
      process.execPath,
      [join(process.cwd(), "dist", "cli.js"), ...argv],
      { env: { ...process.env, A2A_URL: url, A2A_TOKEN: token, NO_COLOR: "1" } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, out: stdout, err: stderr });
      },
    );
  });
}

describe("claude-a2a triggers (the built CLI)", () => {
  it(
    "lists the triggers and fires one for an operator; says why to anyone else",
    async () => {
      const h = server([
        { match: { lastUserText: "Fix issue #(none): (none)" }, reply: reply(text("By hand.")) },
      ]);
      const url = h.server.url;

      const alice = await cli(url, TOKEN.alice, ["triggers"]);
      expect(alice.code).toBe(1);
      expect(alice.err).toContain("Only an operator may see and fire triggers");
      expect(alice.out).toBe("");

      const unknown = await cli(url, TOKEN.ops, ["triggers", "fire", "nope"]);
      expect(unknown).toMatchObject({ code: 1, err: 'claude-a2a: No trigger "nope".\n' });

      const fired = await cli(url, TOKEN.ops, ["triggers", "fire", "fix"]);
      expect(fired.err).toBe("");
      expect(fired.code).toBe(0);
      const match = /^Started task (\S+)\nFollow it: claude-a2a task (\S+)\n$/.exec(fired.out);
      expect(match?.[1]).toBeDefined();
      expect(match?.[2]).toBe(match?.[1]);
      const taskId = match?.[1] ?? "";
      await h.bench.model.waitForRequest((r) => r.lastUserText.includes("Fix issue #(none)"));

      const listed = await cli(url, TOKEN.ops, ["triggers"]);
      expect(listed.code).toBe(0);
      const [header, fix, other] = listed.out.trimEnd().split("\n");
      expect(header?.split(/\s+/)).toEqual(["NAME", "KIND", "FIRES", "NEXT", "LAST"]);
      expect(fix).toMatch(
        new RegExp(`^fix\\s+webhook\\s+/hooks/fix\\s+-\\s+\\S+ \\S+ started ${taskId}$`),
      );
      expect(other).toMatch(/^other\s+webhook\s+\/hooks\/other\s+-\s+/);

      const shown = await cli(url, TOKEN.ops, ["task", taskId]);
      expect(shown.code).toBe(0);
      expect(shown.out).toContain(taskId);
    },
    TIMEOUT,
  );
});
