/**
 * What tasks cost, against the REAL Claude Code runtime: the scripted model reports 10 input and
 * 20 output tokens a reply, which the runtime prices for claude-sonnet-4-5 at $0.00033. A task's
 * metadata, the client's output and the metrics show those figures summed over its runs (a wake
 * included); a resumed session does not count its earlier turns again; budgets stop tasks.
 */
import { describe, expect, it } from "vitest";
import { TaskState, type Message } from "@a2a-js/sdk";
import { usageOf, type TaskUsage } from "../../src/contract/usage.js";
import {
  a2a,
  afterTool,
  lastStatus,
  listRequest,
  reply,
  runCli,
  says,
  sendForTask,
  temp,
  TEST_MODEL,
  text,
  toolUse,
  userMessage,
} from "../support/harness/index.js";
import { startJobRules } from "../support/a2a/background.js";

/** The runtime's price of one scripted reply (10 input, 20 output tokens) for TEST_MODEL. */
const REPLY_USD = 0.00033;

/** The usage a task whose runs made `replies` model calls in `modelTurns` round-trips reports. */
function expectUsage(u: TaskUsage | undefined, replies: number, runs: number, modelTurns: number) {
  expect(u).toBeDefined();
  expect(u?.costUsd).toBeCloseTo(REPLY_USD * replies, 10);
  expect(u).toMatchObject({
    inputTokens: 10 * replies,
    outputTokens: 20 * replies,
    cacheReadTokens: 0,
    cacheCreationTokens: 0,
    runs,
    modelTurns,
  });
  expect(Object.keys(u?.models ?? {})).toEqual([TEST_MODEL]);
  expect(u?.models[TEST_MODEL]?.costUsd).toBeCloseTo(REPLY_USD * replies, 10);
  expect(u?.durationMs).toBeGreaterThan(0);
}

const withBudget = (message: Message, maxBudgetUsd: unknown): Message => ({
  ...message,
  metadata: { maxBudgetUsd },
});

describe("usage and cost of a task (real runtime)", () => {
  it("sums its turn and the wake its background job caused: metadata, client output, metrics", async () => {
    const h = await a2a({
      rules: [
        ...startJobRules("sleep 1 && echo job-done"),
        {
          name: "wake",
          match: { lastUserText: /<task-notification>/, toolResult: false },
          reply: reply(text("The job is done.")),
        },
      ],
    });
    const dir = (await temp("claude-a2a-cost-e2e-")).path;
    const env = { XDG_CONFIG_HOME: dir, A2A_URL: h.server.url };
    // Three model calls: the tool call and "Job started." (one run), the wake's answer (another).
    const sent = await runCli(["send", "Start the job"], { env });
    expect(sent.err).toBe("");
    expect(sent.code).toBe(0);
    expect(sent.out).toMatch(/\[completed\] \$0\.00099 · 30 in, 60 out tokens\n$/);
    expect(h.bench.model.messageRequests).toHaveLength(3);

    const [task] = (await h.client.listTasks(listRequest(""))).tasks;
    const stored = await h.client.getTask({ tenant: "", id: task?.id ?? "", historyLength: 0 });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expectUsage(usageOf(stored.metadata), 3, 2, 3);

    const listed = await runCli(["tasks"], { env });
    expect(listed.out).toMatch(
      new RegExp(`^${stored.id} +completed .*\\$0\\.00099 +Start the job$`, "m"),
    );
    const shown = await runCli(["task", stored.id], { env });
    expect(shown.out).toMatch(/^Cost {5}\$0\.00099 {2}\(2 runs, 3 model turns, [\d.]+ s\)$/m);
    expect(shown.out).toContain("Tokens   30 in, 60 out tokens\n");
    expect((await runCli(["send", "--no-cost", "Start the job"], { env })).out).toMatch(
      /\[completed\]\n$/,
    );

    const metrics = await (await fetch(`${h.server.url}/metrics`)).text();
    const series = (name: string, labels: string) =>
      Number(new RegExp(`^${name}\\{${labels}\\} (\\S+)$`, "m").exec(metrics)?.[1]);
    // Both tasks (six replies), by the anonymous caller: not a configured token or login.
    const labels = (type: string) => `caller="other",model="${TEST_MODEL}",type="${type}"`;
    expect(series("claude_a2a_tokens_total", labels("input"))).toBe(60);
    expect(series("claude_a2a_tokens_total", labels("output"))).toBe(120);
    expect(series("claude_a2a_cost_usd_total", `caller="other",model="${TEST_MODEL}"`)).toBeCloseTo(
      REPLY_USD * 6,
      10,
    );
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("a conversation resumed after a restart counts only the new task's run", async () => {
    const h = await a2a({ rules: [{ match: {}, reply: reply(text("Hello.")) }] });
    const first = await h.send("Hello");
    expectUsage(usageOf(first.metadata), 1, 1, 1);
    await h.restart();
    // The runtime resumes with its saved total ($0.00033) and reports $0.00066 on this turn.
    const second = await h.send("Again", { contextId: first.contextId });
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(h.spawns()).toBe(2);
    expectUsage(usageOf(second.metadata), 1, 1, 1);
  });
});

describe("budgets (real runtime)", () => {
  it("claude.maxBudgetUsd and a lower metadata.maxBudgetUsd stop a task with the text; a higher one is refused before any task", async () => {
    const h = await a2a({
      config: { claude: { maxBudgetUsd: 0.0005 } },
      rules: [
        {
          name: "look",
          match: { lastUserText: "Look around", toolResult: false },
          reply: reply(toolUse("Glob", { pattern: "*" })),
        },
        afterTool(true, "Looked.", "looked"),
        says("Hello", "Hello.", "hello"),
      ],
    });
    // Under the budget: one reply.
    const cheap = await h.send("Hello");
    expect(cheap.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    // Two replies ($0.00066) cross $0.0005: the turn finishes, then the task fails.
    const events = await h.stream("Look around");
    const end = lastStatus(events);
    expect(end.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(end.text).toBe(
      "Stopped: this task spent $0.00066, over its budget of $0.0005 (claude.maxBudgetUsd).",
    );
    expect(h.bench.model.requests.map((r) => r.rule)).toEqual(["hello", "look", "looked"]);

    // A message may lower the budget for its task.
    const lowered = await sendForTask(h.client, withBudget(userMessage("Hello"), 0.0002));
    expect(lowered.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(lastStatusText(lowered)).toBe(
      "Stopped: this task spent $0.00033, over its budget of $0.0002 (metadata.maxBudgetUsd).",
    );
    expectUsage(usageOf(lowered.metadata), 1, 1, 1);

    // Never raise it: refused on both bindings, and no task exists.
    const before = (await h.client.listTasks(listRequest(""))).tasks.length;
    const wire = (maxBudgetUsd: unknown) => ({
      message: {
        messageId: crypto.randomUUID(),
        role: "ROLE_USER",
        parts: [{ text: "Hello" }],
        metadata: { maxBudgetUsd },
      },
    });
    const headers = { "content-type": "application/json", "A2A-Version": "1.0" };
    const rpc = await fetch(`${h.server.url}/a2a/jsonrpc`, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: wire(0.001) }),
    });
    expect(await rpc.json()).toMatchObject({
      error: {
        code: -32602,
        message:
          "metadata.maxBudgetUsd 0.001 is above this server's claude.maxBudgetUsd (0.0005): a task's budget may lower it, never raise it.",
      },
    });
    const rest = await fetch(`${h.server.url}/a2a/rest/message:send`, {
      method: "POST",
      headers,
      body: JSON.stringify(wire("cheap")),
    });
    expect(rest.status).toBe(400);
    expect(JSON.stringify(await rest.json())).toContain(
      'metadata.maxBudgetUsd must be a number of US dollars greater than 0, got \\"cheap\\".',
    );
    expect((await h.client.listTasks(listRequest(""))).tasks).toHaveLength(before);
    expect(h.bench.model.requests).toHaveLength(4);
    expect(h.bench.model.unmatched).toEqual([]);
  });
});

function lastStatusText(task: { status?: { message?: Message | undefined } | undefined }) {
  return (task.status?.message?.parts ?? [])
    .map((p) => (p.content?.$case === "text" ? p.content.value : ""))
    .join("");
}
