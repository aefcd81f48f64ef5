/**
 * Hostile input, property style (fixed seed): a few hundred corrupted JSON-RPC and REST requests
 * (truncated, wrong types, huge and deep values, bad base64, traversal filenames, odd ids, bad
 * headers) interleaved with valid ones, against the real server process on 127.0.0.1 with the
 * real Claude Code runtime and the scripted model. Every answer is a JSON protocol error or a
 * correct result, every valid task completes, the store and the workspace hold nothing from the
 * garbage, and the log stays JSON lines without a secret. Then a restart: ids such as
 * `__proto__` and `constructor` work like any other id, across it.
 */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { Role, TaskState, type Part, type Task } from "@a2a-js/sdk";
import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import { callerInbox, INBOX_DIR } from "../../src/workspace/inbox.js";
import { ANONYMOUS_OWNER } from "../../src/identity/caller.js";
import {
  a2a,
  listRequest,
  postRpc,
  reply,
  says,
  sendForTask,
  serverProcess,
  text,
  textPart,
  userMessage,
  watchMessage,
} from "../support/harness/index.js";
import {
  EDGE_REQUESTS,
  hostileRequest,
  seededRng,
  SECRETS,
  TRAVERSAL_FILENAMES,
  type HostileRequest,
} from "../support/hostile.js";

const SEED = 0x5eed_a2a;
const HOSTILE_REQUESTS = 300;
/** One valid message every this many hostile requests. */
const VALID_EVERY = 25;
/** Valid conversations: odd ids on purpose, they must work like any other. */
const CONTEXTS = ["__proto__", "constructor", "ctx-plain"] as const;
const PUSH_TOKEN = "hostile-push-config-secret-3f0b";
const ODD_MESSAGE_IDS: Record<number, { messageId: string }> = {
  1: { messageId: "__proto__" },
  2: { messageId: "constructor" },
};

type Json = Record<string, unknown>;

/** Own `__proto__` and `constructor` keys, as JSON.parse makes them (a literal would not). */
const pollutingMetadata = (): Json =>
  JSON.parse(
    '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
  ) as Json;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null;

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => !e.isDirectory())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
}

/** Why `res` is not an acceptable answer to `r`, or undefined. */
async function answerProblem(
  r: HostileRequest,
  res: Response,
  validContexts: ReadonlySet<string>,
): Promise<string | undefined> {
  const body = await res.text();
  if (res.status >= 500) return `HTTP ${res.status}: ${body.slice(0, 300)}`;
  if (/<html|\n\s+at |node:internal|call stack|TypeError|SyntaxError/i.test(body)) {
    return `internal text in the answer: ${body.slice(0, 300)}`;
  }
  if (r.expect === "no-body") {
    return res.status === 204 && body === "" ? undefined : `not 204: ${res.status} ${body}`;
  }
  if (!/json/.test(res.headers.get("content-type") ?? "")) {
    return `content-type ${res.headers.get("content-type")}: ${body.slice(0, 200)}`;
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return `not JSON: ${body.slice(0, 200)}`;
  }
  if (!isObject(json)) return `not an object: ${body.slice(0, 200)}`;
  const jsonRpc = r.path === "/a2a/jsonrpc" && r.method === "POST";
  const error = json.error;
  // An HTTP-level refusal (a body too large, headers Node's parser refuses) comes before any
  // JSON-RPC envelope, on either binding.
  const httpError = res.status >= 400 && (isObject(error) || typeof error === "string");
  const isError =
    httpError ||
    (jsonRpc &&
      json.jsonrpc === "2.0" &&
      isObject(error) &&
      typeof error.code === "number" &&
      typeof error.message === "string" &&
      !("result" in json));
  if (isError) return undefined;
  if (r.expect === "error") return `expected an error, got ${res.status}: ${body.slice(0, 300)}`;
  // A correct result: a list holding nothing but tasks of the valid conversations.
  const result = jsonRpc ? json.result : json;
  const tasks = isObject(result) ? result.tasks : undefined;
  if (!Array.isArray(tasks)) return `neither an error nor a task list: ${body.slice(0, 300)}`;
  const foreign = tasks.filter((t) => !isObject(t) || !validContexts.has(String(t.contextId)));
  return foreign.length === 0 ? undefined : `listed tasks of no valid conversation: ${body}`;
}

function filePart(filename: string): Part {
  return {
    content: { $case: "raw", value: Buffer.from(`attached as ${filename}\n`) },
    mediaType: "text/plain",
    filename,
    metadata: undefined,
  };
}

/** Every task the caller may list, all pages. */
async function allTasks(client: Client): Promise<Task[]> {
  const tasks: Task[] = [];
  let pageToken = "";
  do {
    const page = await client.listTasks({ ...listRequest("", 0), pageSize: 100, pageToken });
    tasks.push(...page.tasks);
    pageToken = page.nextPageToken;
  } while (pageToken !== "");
  return tasks;
}

describe("hostile input", () => {
  it("a few hundred corrupted requests among valid ones: JSON errors or correct results, valid tasks complete, nothing stored or written from the garbage, JSON-line logs without secrets; odd ids survive a restart", async () => {
    const p = await serverProcess({
      rules: [
        says("Still there?", "Yes.", "follow-up"),
        { name: "ok", match: {}, reply: reply(text("ok")) },
      ],
      // The push config below names a loopback webhook (tests send traffic nowhere else).
      config: { server: { pushAllowPrivateNetworks: true } },
      deferStart: true,
    });
    const { bench } = p;
    const { cwd, env, root } = bench.sandbox;
    const rootBefore = (await readdir(root)).sort();
    const escapedBefore = existsSync("/tmp/escaped.txt");
    // Debug level: the most the server ever writes must still be JSON lines without secrets.
    const server = await p.spawn({ env: { ...env, LOG_LEVEL: "debug" } });
    const client = await new ClientFactory().createFromUrl(server.url);

    const rng = seededRng(SEED);
    const validContexts = new Set<string>(CONTEXTS);
    const valid: Promise<Task>[] = [];
    const problems: string[] = [];
    for (let i = 0; i < HOSTILE_REQUESTS + EDGE_REQUESTS.length; i++) {
      if (i % VALID_EVERY === 0) {
        const n = i / VALID_EVERY;
        const contextId = CONTEXTS[n % CONTEXTS.length] as string;
        // Every third valid message attaches a file under a traversal name.
        const parts: Part[] = [textPart(`valid message ${n} in ${contextId}`)];
        if (n % 3 === 0) parts.push(filePart(TRAVERSAL_FILENAMES[n % TRAVERSAL_FILENAMES.length]!));
        // Not awaited: the garbage keeps coming while the valid tasks run.
        // Message ids are the client's: odd ones too.
        const message = {
          ...userMessage(parts, { contextId }),
          ...ODD_MESSAGE_IDS[n],
          ...(n === 4 && { metadata: pollutingMetadata() }),
        };
        const sent = sendForTask(client, message);
        // Handled here too, so an early failed assertion leaves no unhandled rejection behind.
        sent.catch(() => undefined);
        valid.push(sent);
      }
      const r = i < HOSTILE_REQUESTS ? hostileRequest(rng) : EDGE_REQUESTS[i - HOSTILE_REQUESTS]!;
      // Bounded: a request the server never answers is a finding, not a hung test.
      const init: RequestInit = {
        method: r.method,
        headers: r.headers,
        signal: AbortSignal.timeout(60_000),
      };
      if (r.body !== undefined) init.body = r.body;
      const problem = await fetch(`${server.url}${r.path}`, init).then(
        (res) => answerProblem(r, res, validContexts),
        (err: Error) => `no answer: ${err.message}`,
      );
      if (problem !== undefined) problems.push(`#${i} ${r.label}: ${problem}`);
    }
    expect(problems).toEqual([]);

    // Every valid task completed.
    const tasks = await Promise.all(valid);
    expect(tasks.map((t) => t.status?.state)).toEqual(
      tasks.map(() => TaskState.TASK_STATE_COMPLETED),
    );
    const validIds = new Set(tasks.map((t) => t.id));

    // The store holds the valid tasks and nothing else.
    const stored = await allTasks(client);
    expect(new Set(stored.map((t) => t.id))).toEqual(validIds);

    // The workspace: nothing outside .claude/, attachments only in the inbox of a valid task.
    const files = await filesUnder(cwd);
    expect(files.filter((f) => !f.startsWith(".claude/"))).toEqual([]);
    const inbox = files.filter((f) => f.startsWith(`${INBOX_DIR}/`));
    expect(inbox.length).toBeGreaterThan(0);
    for (const f of inbox) {
      // `<inbox>/<caller>/<task>/<file>`: the anonymous caller's folder, a valid task's.
      expect(f.startsWith(`${callerInbox(ANONYMOUS_OWNER)}/`), f).toBe(true);
      const taskId = f.slice(INBOX_DIR.length + 1).split("/")[1] ?? "";
      expect(validIds.has(taskId), f).toBe(true);
      expect(f.split("/")).toHaveLength(INBOX_DIR.split("/").length + 3);
    }
    expect((await readdir(root)).sort()).toEqual(rootBefore);
    expect(existsSync("/tmp/escaped.txt")).toBe(escapedBefore);

    // A push config whose id is `__proto__`, kept across the restart below.
    // Metadata keys such as __proto__ are kept as data, not taken as a prototype.
    const fourth = await client.getTask({ tenant: "", id: tasks[4]!.id, historyLength: undefined });
    const sent = fourth.history.find((m) => m.role === Role.ROLE_USER);
    expect(JSON.stringify(sent?.metadata)).toBe(JSON.stringify(pollutingMetadata()));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    const protoTask = tasks.find((t) => t.contextId === "__proto__");
    if (!protoTask) throw new Error("expected a task in the __proto__ context");
    await client.createTaskPushNotificationConfig({
      tenant: "",
      taskId: protoTask.id,
      id: "__proto__",
      url: "http://127.0.0.1:9/hook",
      token: PUSH_TOKEN,
      authentication: undefined,
    });

    server.kill("SIGTERM");
    expect((await server.exited).code).toBe(0);
    expect(server.stderr()).toBe("");
    const lines = server.stdout().split("\n").filter(Boolean);
    const logs = lines.map((line, n) => {
      try {
        return JSON.parse(line) as Json;
      } catch {
        throw new Error(`log line ${n + 1} is not JSON: ${line.slice(0, 300)}`);
      }
    });
    expect(logs.filter((l) => (l.level as number) >= 50)).toEqual([]);
    expect(logs.filter((l) => l.msg === "request").length).toBeGreaterThanOrEqual(HOSTILE_REQUESTS);
    for (const secret of [SECRETS.bearer, SECRETS.notificationToken, PUSH_TOKEN]) {
      expect(server.stdout()).not.toContain(secret);
    }

    // Restart on the same workspace: the odd ids are still ids like any other.
    const again = await p.spawn({ env: { ...env, LOG_LEVEL: "info" } });
    const client2 = await new ClientFactory().createFromUrl(again.url);
    for (const task of tasks) {
      const reloaded = await client2.getTask({ tenant: "", id: task.id, historyLength: undefined });
      expect(reloaded.contextId).toBe(task.contextId);
      expect(reloaded.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    }
    for (const contextId of CONTEXTS) {
      const listed = await client2.listTasks(listRequest(contextId));
      expect(new Set(listed.tasks.map((t) => t.id))).toEqual(
        new Set(tasks.filter((t) => t.contextId === contextId).map((t) => t.id)),
      );
    }
    const push = await client2.getTaskPushNotificationConfig({
      tenant: "",
      taskId: protoTask.id,
      id: "__proto__",
    });
    expect(push.url).toBe("http://127.0.0.1:9/hook");

    // The conversation named `__proto__` resumes: the model sees its earlier messages.
    const next = await sendForTask(
      client2,
      userMessage("Still there?", { contextId: "__proto__" }),
    );
    expect(next.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const request = bench.model.messageRequests.at(-1);
    expect(JSON.stringify(request?.body.messages)).toContain("valid message 0 in __proto__");
    expect(bench.model.unmatched).toEqual([]);
  }, 300_000);

  it("re-cancelling an ended task, canceled or completed, is TaskNotCancelable on both bindings", async () => {
    const h = await a2a({
      rules: [
        {
          match: { lastUserText: "Talk slowly" },
          reply: reply(text("A long and slow answer, ".repeat(20)), {
            chunkSize: 4,
            chunkDelayMs: 100,
          }),
        },
        { match: {}, reply: reply(text("Done.")) },
      ],
    });
    const client = h.client;
    const stream = watchMessage(client, "Talk slowly");
    const head = await stream.first((e) => e.payload?.$case === "task");
    const running = head.payload?.$case === "task" ? head.payload.value : undefined;
    if (!running) throw new Error("expected a task first");
    const canceled = await client.cancelTask({ tenant: "", id: running.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await stream.done.catch(() => undefined);
    const completed = await sendForTask(client, userMessage("Quick one"));
    expect(completed.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const url = h.server.url;
    for (const task of [canceled, completed]) {
      await expect(
        client.cancelTask({ tenant: "", id: task.id, metadata: undefined }),
      ).rejects.toThrow(/not cancelable/i);
      const rpc = await postRpc(url, "CancelTask", { id: task.id }, { id: 0 });
      expect(await rpc.json()).toMatchObject({ id: 0, error: { code: -32002 } });
      const rest = await fetch(`${url}/a2a/rest/tasks/${task.id}:cancel`, {
        method: "POST",
        headers: { "A2A-Version": "1.0", "content-type": "application/json" },
        body: "{}",
      });
      // A2A v1.0 §5.4: TaskNotCancelable is HTTP 409 on HTTP+JSON.
      expect(rest.status).toBe(409);
      expect(await rest.json()).toMatchObject({ error: { message: /not cancelable/ } });
      const after = await client.getTask({ tenant: "", id: task.id, historyLength: undefined });
      expect(after.status?.state).toBe(task.status?.state);
    }
  }, 120_000);
});
