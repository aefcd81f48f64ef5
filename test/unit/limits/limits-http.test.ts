/**
 * Per-caller limits through the HTTP surface: the whole server but Claude (`createAgent` with
 * scripted queries, the real HTTP app on 127.0.0.1:0), two bearer-token callers, the wall clock
 * by hand. Each refusal is checked on the wire of both bindings, and that it made no task.
 */
import { describe, expect, it, vi } from "vitest";
import type { ConfigInput } from "../../../src/config/schema.js";
import {
  autonomousTurn,
  sdk,
  startsBackgroundJob,
  type BackgroundJobTurn,
} from "../claude/support/sdk-messages.js";
import { sentStamp } from "../a2a/support/agent.js";
import {
  answeredTaskId as taskIdOf,
  jsonRpc,
  restPost as rest,
  servedAgent,
  wireMessage as message,
  type AgentServer as Served,
  type Who,
} from "../http/support/agent-server.js";
import { taskRateErrorInfo } from "../../support/unit/error-info.js";

const T0 = Date.UTC(2025, 0, 31, 23, 0, 0); // an hour before a new UTC day

const serve = (limits: ConfigInput["limits"], config: ConfigInput = {}): Promise<Served> =>
  servedAgent({ config: { ...config, limits }, now: T0 });

/** A new task that returns at once (it keeps working: the scripted model never answers). */
const startTask = (s: Served, who: Who) =>
  jsonRpc(s, who, "SendMessage", {
    message: message(),
    configuration: { returnImmediately: true },
  });

async function listTasks(s: Served, who: Who): Promise<number> {
  const a = await jsonRpc(s, who, "ListTasks", {});
  return ((a.body.result as { tasks?: unknown[] }).tasks ?? []).length;
}

const errorInfo = (list: unknown) =>
  (list as Record<string, unknown>[]).find((d) => d.domain === "claude-a2a");

describe("tasksPerMinute", () => {
  it("the (n+1)-th task within a minute is refused on JSON-RPC and REST, with the reason and when it resets; no task is made; another caller is not affected", async () => {
    const s = await serve({ default: { tasksPerMinute: 2 } });
    expect((await startTask(s, "ci")).body.result).toBeDefined();
    s.clock.ms += 20_000;
    expect((await startTask(s, "ci")).body.result).toBeDefined();

    const refused = await startTask(s, "ci");
    expect(refused.status).toBe(200);
    const error = refused.body.error as { code: number; message: string; data: unknown };
    expect(error.code).toBe(-32029);
    expect(error.message).toBe(
      "Caller limit reached (tasksPerMinute): token:ci may start at most 2 task(s) per minute; " +
        "try again in 40 s (at 2025-01-31T23:01:00.000Z).",
    );
    expect(errorInfo(error.data)).toEqual(
      taskRateErrorInfo({
        caller: "token:ci",
        max: "2",
        retryAfterSeconds: "40",
        resetsAt: "2025-01-31T23:01:00.000Z",
      }),
    );

    // The same refusal on REST: 429, Retry-After, google.rpc.Status with the same ErrorInfo.
    const viaRest = await rest(s, "ci", "/message:send", { message: message() });
    expect(viaRest.status).toBe(429);
    expect(viaRest.headers.get("retry-after")).toBe("40");
    const restError = viaRest.body.error as Record<string, unknown>;
    expect(restError).toMatchObject({ code: 429, status: "RESOURCE_EXHAUSTED" });
    expect(restError.message).toBe(error.message);
    expect(errorInfo(restError.details)).toEqual(errorInfo(error.data));

    // Streaming methods are refused the same way, before any stream opens.
    const stream = await jsonRpc(s, "ci", "SendStreamingMessage", { message: message() });
    expect((stream.body.error as { code: number }).code).toBe(-32029);
    const restStream = await rest(s, "ci", "/message:stream", { message: message() });
    expect(restStream.status).toBe(429);

    expect(await listTasks(s, "ci")).toBe(2);
    expect((await startTask(s, "laptop")).body.result).toBeDefined();

    // 40 s on, the first start has left the window: one more fits, then it is full again.
    s.clock.ms += 40_000;
    expect((await startTask(s, "ci")).body.result).toBeDefined();
    expect(((await startTask(s, "ci")).body.error as { code: number }).code).toBe(-32029);
    expect(await listTasks(s, "ci")).toBe(3);
  });
});

describe("v0.3 clients (server.compat.v03)", () => {
  it("get the same refusal, in v0.3's shapes: JSON-RPC -32029 with the ErrorInfo, REST 429", async () => {
    const s = await serve(
      { default: { tasksPerMinute: 1 } },
      { server: { compat: { v03: true } } },
    );
    expect((await startTask(s, "ci")).body.result).toBeDefined();
    const v03 = { "A2A-Version": "" }; // no header: A2A 0.3
    const legacyMessage = {
      kind: "message",
      messageId: "v03-1",
      role: "user",
      parts: [{ kind: "text", text: "hi" }],
    };
    const rpc = await jsonRpc(s, "ci", "message/send", { message: legacyMessage }, v03);
    const error = rpc.body.error as { code: number; message: string; data: unknown };
    expect(error.code).toBe(-32029);
    expect(error.message).toMatch(
      /^Caller limit reached \(tasksPerMinute\): token:ci may start at most 1 task/,
    );
    expect(errorInfo(error.data)).toMatchObject({ reason: "TASK_RATE_LIMIT_EXCEEDED" });

    const message = { messageId: "v03-2", role: "ROLE_USER", content: [{ text: "hi" }] };
    const viaRest = await rest(s, "ci", "/v1/message:send", { message }, v03);
    expect(viaRest.status).toBe(429);
    expect(viaRest.headers.get("retry-after")).toBe("60");
    expect(viaRest.body).toMatchObject({ code: -32029, message: error.message });
    expect(errorInfo(viaRest.body.data)).toMatchObject({ reason: "TASK_RATE_LIMIT_EXCEEDED" });
    expect(await listTasks(s, "ci")).toBe(1);
  });
});

describe("concurrentTasks", () => {
  it("a caller with its limit of tasks not yet ended is refused until one ends; an answer to a parked task is never refused", async () => {
    const s = await serve({ default: { concurrentTasks: 1 } });
    const first = taskIdOf(await startTask(s, "ci"));
    const refused = await rest(s, "ci", "/message:send", { message: message() });
    expect(refused.status).toBe(429);
    // No time is known at which a task ends: no Retry-After.
    expect(refused.headers.get("retry-after")).toBeNull();
    expect((refused.body.error as { message: string }).message).toBe(
      "Caller limit reached (concurrentTasks): token:ci may have at most 1 task(s) at once and " +
        "has 1 not yet ended; try again when one of them ends.",
    );
    expect(errorInfo((refused.body.error as { details: unknown }).details)).toMatchObject({
      reason: "CONCURRENT_TASK_LIMIT_EXCEEDED",
      metadata: { limit: "concurrentTasks", max: "1", working: "1" },
    });
    expect((await startTask(s, "laptop")).body.result).toBeDefined();

    // The first task asks permission (parked), and its answer is let through at the limit.
    const ciQuery = s.h.fake.queries[0];
    if (ciQuery === undefined) throw new Error("no query for the first task");
    const stamp = String((await ciQuery.sentMessage(0)).uuid);
    const outside = { file_path: "/etc/outside.txt", content: "x" };
    await ciQuery.feed(sdk.init(), sdk.toolUse("m1", "tu-1", "Write", outside, { stamp }));
    const canUseTool = ciQuery.options.canUseTool;
    if (canUseTool === undefined) throw new Error("no canUseTool");
    const decision = canUseTool("Write", outside, {
      signal: new AbortController().signal,
      toolUseID: "tu-1",
      requestId: "tu-1",
    });
    await vi.waitFor(() => expect(s.h.agent.executor.liveState(first)).toBe("parked"));
    const answered = await jsonRpc(s, "ci", "SendMessage", {
      message: message({ taskId: first, text: "yes" }),
      configuration: { returnImmediately: true },
    });
    expect(answered.body.error).toBeUndefined();
    await expect(decision).resolves.toMatchObject({ behavior: "allow" });

    // The task ends: the caller may start another.
    await ciQuery.feed(sdk.toolResult("tu-1", "ok"), sdk.result({ text: "done", stamp }));
    await vi.waitFor(() => expect(s.h.agent.executor.phaseOf(first)).toBeUndefined());
    expect((await startTask(s, "ci")).body.result).toBeDefined();
  });
});

describe("dailyBudgetUsd", () => {
  it("a task whose run reaches the budget completes saying so; the next is refused until the next UTC day; another caller is not affected", async () => {
    const s = await serve({ default: { dailyBudgetUsd: 0.5 } });
    const first = await jsonRpc(s, "ci", "SendMessage", {
      message: message(),
      configuration: { returnImmediately: true },
    });
    const taskId = taskIdOf(first);
    const stamp = await sentStamp(s.h, 0);
    await s.h.fake.query.feed(sdk.init(), sdk.text("m1", "the answer", { stamp }), {
      ...sdk.result({ text: "the answer", stamp }),
      total_cost_usd: 0.6,
    });
    await vi.waitFor(() => expect(s.h.agent.executor.phaseOf(taskId)).toBeUndefined());
    const task = (await jsonRpc(s, "ci", "GetTask", { id: taskId })).body.result as {
      status: { state: string; message: { metadata: { kind: string }; parts: { text: string }[] } };
    };
    expect(task.status.state).toBe("TASK_STATE_COMPLETED");
    expect(task.status.message.metadata.kind).toBe("budget_reached");
    expect(task.status.message.parts[0]?.text).toBe(
      "Daily budget reached: token:ci has spent $0.60 today of a daily budget of $0.50 " +
        "(dailyBudgetUsd), so this task stopped after its turn; new tasks are refused until " +
        "00:00 UTC (2025-02-01T00:00:00.000Z).",
    );

    const refused = await rest(s, "ci", "/message:send", { message: message() });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("3600");
    expect(errorInfo((refused.body.error as { details: unknown }).details)).toMatchObject({
      reason: "DAILY_BUDGET_EXCEEDED",
      metadata: { spentUsd: "0.6", max: "0.5", resetsAt: "2025-02-01T00:00:00.000Z" },
    });
    const viaRpc = await startTask(s, "ci");
    expect((viaRpc.body.error as { message: string }).message).toBe(
      "Caller limit reached (dailyBudgetUsd): token:ci has spent $0.60 today of a daily budget " +
        "of $0.50; new tasks are refused until it resets at 00:00 UTC " +
        "(2025-02-01T00:00:00.000Z, in 1 h).",
    );
    expect((await startTask(s, "laptop")).body.result).toBeDefined();

    s.clock.ms = Date.UTC(2025, 1, 1);
    expect((await startTask(s, "ci")).body.result).toBeDefined();
  });

  /** `ci`'s task under a $0.50 daily budget: its turn starts background work, costs, and ends. */
  async function spendsOnBackgroundWork(
    backgroundTasks: "wait" | "detach",
    job: BackgroundJobTurn,
  ) {
    const s = await serve({ default: { dailyBudgetUsd: 0.5 } }, { claude: { backgroundTasks } });
    const taskId = taskIdOf(await startTask(s, "ci"));
    const stamp = await sentStamp(s.h, 0);
    await s.h.fake.query.feed(
      ...startsBackgroundJob(stamp, { listed: false, stampedText: true, ...job }),
    );
    await vi.waitFor(() => expect(s.h.agent.executor.phaseOf(taskId)).toBeUndefined());
    return { s, taskId };
  }

  it("a task that reaches it with background work still running stops it and does not wait", async () => {
    const { s, taskId } = await spendsOnBackgroundWork("wait", {
      taskId: "bg-1",
      command: "sleep 100",
      text: "started it",
      costUsd: 0.5,
    });
    expect(s.h.fake.query.stoppedTasks).toEqual(["bg-1"]);
    const task = (await jsonRpc(s, "ci", "GetTask", { id: taskId })).body.result as {
      status: { state: string; message: { parts: { text: string }[] } };
    };
    expect(task.status.state).toBe("TASK_STATE_COMPLETED");
    expect(task.status.message.parts[0]?.text).toContain(
      "so this task stopped after its turn and its background work was stopped;",
    );
  });

  it("past the budget, a wake of background work is interrupted before it costs, and makes no task", async () => {
    const { s } = await spendsOnBackgroundWork("detach", { costUsd: 0.7 });
    const query = s.h.fake.query;
    expect(query.interrupts).toBe(0);
    // The job ends and the runtime starts a turn of its own: interrupted at once.
    await query.feed(sdk.taskUpdated("t1", "completed"), sdk.taskNotification("t1", "tu-bg"));
    await query.feed(...autonomousTurn("m3", "Report."));
    expect(query.interrupts).toBe(1);
    expect(await listTasks(s, "ci")).toBe(1);
  });
});

describe("no limits configured", () => {
  it("nothing is counted or refused", async () => {
    const s = await serve(undefined);
    for (let i = 0; i < 5; i++) expect((await startTask(s, "ci")).body.result).toBeDefined();
  });
});
