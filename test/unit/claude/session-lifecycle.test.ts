import type { CanUseTool } from "@anthropic-ai/claude-agent-sdk";
import { pino } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { collect } from "./support/helpers.js";
import { historyExchange, reply, sdk } from "./support/sdk-messages.js";
import { scriptedSession } from "./support/session.js";

afterEach(() => {
  vi.useRealTimers();
});

/** A turn that starts background Bash `t1` and ends; resolves when the turn's stream is over. */
async function startBackgroundJob(
  fake: ReturnType<typeof scriptedSession>["fake"],
  send: ReturnType<typeof scriptedSession>["send"],
): Promise<void> {
  const { stream, stamp } = await send("start it", 0);
  const out = collect(stream);
  await fake.query.feed(
    sdk.init(),
    sdk.toolUse("m1", "tu-bg", "Bash", { command: "sleep 99", run_in_background: true }, { stamp }),
    sdk.tasksChanged(["t1"]),
    sdk.taskStarted("t1", "tu-bg"),
    ...reply(stamp, "m2", "Started."),
  );
  await out;
}

describe("ClaudeSession: process lifecycle", () => {
  it("fails the active run with a clear reason when the stream ends without a result", async () => {
    const { fake, session, start } = scriptedSession();
    const { stream, stamp, out } = await start("hi", 0);
    await fake.query.feed(sdk.init(), sdk.messageStart("m1", { stamp }), sdk.textDelta(0, "par"));
    fake.query.end();
    const last = (await out).at(-1);
    expect(last).toMatchObject({ kind: "run_failed", runId: stream.runId });
    expect(last && "reason" in last ? last.reason : "").toMatch(
      /process ended before the run finished/,
    );
    expect(session.status).toBe("error");
    expect(session.turnState).toBe("idle");
    // The session cannot send any more: a new prompt fails at once instead of hanging.
    expect((await collect(session.stream("again"))).at(-1)).toMatchObject({
      kind: "run_failed",
      reason: expect.stringMatching(/re-create the session/) as unknown,
    });
  });

  it("fails active and queued runs with the error when the stream throws", async () => {
    const { fake, session, send } = scriptedSession();
    const first = await send("one", 0);
    const queued = session.stream("two");
    const outs = Promise.all([collect(first.stream), collect(queued)]);
    fake.query.fail(new Error("spawn EPIPE"));
    const [a, b] = await outs;
    expect(a?.at(-1)).toMatchObject({
      kind: "run_failed",
      reason: expect.stringContaining("spawn EPIPE") as unknown,
    });
    expect(b?.at(-1)).toMatchObject({ kind: "run_failed" });
    expect(fake.query.sent).toHaveLength(1);
  });

  it("does not crash on unknown or malformed frames mid-run", async () => {
    const { fake, rec, start } = scriptedSession();
    const { stamp, out } = await start("hi", 0);
    await fake.query.feed(
      sdk.init(),
      sdk.unknown("command_lifecycle"),
      { type: "system", subtype: "from_the_future", payload: [1, 2] },
      { type: "assistant", message: "not an object" },
      null,
      42,
    );
    await fake.query.feed(...reply(stamp, "m1", "fine"));
    expect((await out).at(-1)).toMatchObject({ kind: "run_completed", text: "fine" });
    expect(rec.of("metadata").map((m) => m.event.kind)).toContain("metadata");
  });

  it("closes cleanly: the process is closed and active and queued runs end interrupted", async () => {
    const { fake, session, send } = scriptedSession();
    const first = await send("one", 0);
    const queued = session.stream("two");
    const outs = Promise.all([collect(first.stream), collect(queued)]);
    await fake.query.feed(sdk.init(), sdk.messageStart("m1", { stamp: first.stamp }));
    await session.close();
    expect(fake.query.closed).toBe(true);
    const [a, b] = await outs;
    expect(a?.at(-1)).toMatchObject({ kind: "run_interrupted", reason: "session closed" });
    expect(b?.at(-1)).toMatchObject({ kind: "run_interrupted", reason: "session closed" });
    expect(session.status).toBe("idle");
    expect((await collect(session.stream("late"))).at(-1)).toMatchObject({
      kind: "run_failed",
      reason: "session closed",
    });
  });

  it("close(reason): the runs it ends, and the closed event, carry the reason (shutdown names itself)", async () => {
    const { fake, session, send, rec } = scriptedSession();
    const first = await send("one", 0);
    const queued = session.stream("two");
    const outs = Promise.all([collect(first.stream), collect(queued)]);
    await fake.query.feed(sdk.init(), sdk.messageStart("m1", { stamp: first.stamp }));
    await session.close("the server is stopping");
    const [a, b] = await outs;
    expect(a?.at(-1)).toMatchObject({ kind: "run_interrupted", reason: "the server is stopping" });
    expect(b?.at(-1)).toMatchObject({ kind: "run_interrupted", reason: "the server is stopping" });
    expect(rec.of("closed").map((e) => e.reason)).toEqual(["the server is stopping"]);
    expect((await collect(session.stream("late"))).at(-1)).toMatchObject({
      kind: "run_failed",
      reason: "the server is stopping",
    });
  });

  it("a background task the server stops carries its reason when the runtime reports it over", async () => {
    const { fake, session, send, rec } = scriptedSession();
    await startBackgroundJob(fake, send);
    expect(session.foregroundActive).toBe(false);
    await session.stopBackgroundTask("t1", "too long");
    expect(fake.query.stoppedTasks).toEqual(["t1"]);
    await fake.query.feed(sdk.taskNotification("t1", "tu-bg", "stopped"), sdk.tasksChanged([]));
    const finished = rec.of("background_task_finished").map((e) => e.task);
    expect(finished).toEqual([
      expect.objectContaining({ taskId: "t1", status: "stopped", stopReason: "too long" }),
    ]);
    expect(session.backgroundTasks()).toEqual([]);
  });

  it("closing the process ends its background work: each running task finishes stopped, with the close reason", async () => {
    const { fake, session, send, rec } = scriptedSession();
    await startBackgroundJob(fake, send);
    await session.close("the server is stopping");
    expect(rec.of("background_task_finished").map((e) => e.task)).toEqual([
      expect.objectContaining({
        taskId: "t1",
        status: "stopped",
        stopReason: "the server is stopping",
      }),
    ]);
    expect(session.backgroundTasks()).toEqual([]);
    const types = rec.events.map((e) => e.type);
    expect(types.indexOf("background_task_finished")).toBeLessThan(types.indexOf("closed"));
  });

  it("fails the prompt with a clear reason when the process cannot start", async () => {
    const { session } = scriptedSession({
      queryFactory: () => {
        throw new Error("Claude Code executable not found");
      },
    });
    const events = await collect(session.stream("hi"));
    expect(events).toEqual([
      expect.objectContaining({
        kind: "run_failed",
        reason: expect.stringContaining("executable not found") as unknown,
      }),
    ]);
    expect(session.status).toBe("error");
  });
});

describe("ClaudeSession: waitForFinish", () => {
  it("never resolves idle while a run is active, across queued prompts", async () => {
    vi.useFakeTimers();
    const { fake, session, rec, send } = scriptedSession();
    const first = await send("one", 0);
    const second = session.stream("two");
    const waiting = session.waitForFinish(5_000);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await waiting).toBe("timeout");

    const finished = session.waitForFinish(60_000);
    let settled: string | undefined;
    void finished.then((s) => (settled = s));
    await fake.query.feed(...reply(first.stamp, "m1", "1"));
    const sent = await fake.query.sentMessage(1);
    expect(settled).toBeUndefined();
    await fake.query.feed(...reply(String(sent.uuid), "m2", "2"));
    expect(await finished).toBe("idle");
    expect(rec.of("status").map((s) => s.status)).toEqual(["running", "idle"]);
    await collect(second);
  });

  it("resolves permission while the caller's canUseTool is pending", async () => {
    let answer: (v: Awaited<ReturnType<CanUseTool>>) => void = () => undefined;
    const canUseTool: CanUseTool = () => new Promise((resolve) => (answer = resolve));
    const { fake, session, rec, start } = scriptedSession({ canUseTool });
    const { stream, stamp, out } = await start("write outside cwd", 0);
    await fake.query.feed(
      sdk.init(),
      sdk.toolUse("m1", "tu-w", "Write", { file_path: "/etc/x" }, { stamp }),
    );
    const handler = fake.query.options.canUseTool;
    expect(handler).toBeDefined();
    const decision = handler?.(
      "Write",
      { file_path: "/etc/x" },
      {
        signal: new AbortController().signal,
        toolUseID: "tu-w",
        requestId: "req-1",
      },
    );
    expect(await session.waitForFinish(1000)).toBe("permission");
    expect(rec.of("permission_requested")).toEqual([
      {
        type: "permission_requested",
        requestId: "req-1",
        runId: stream.runId,
        toolName: "Write",
        toolUseId: "tu-w",
      },
    ]);
    answer({ behavior: "allow", updatedInput: {} });
    expect(await decision).toEqual({ behavior: "allow", updatedInput: {} });
    expect(session.status).toBe("running");
    await fake.query.feed(sdk.result({ text: "written", stamp }));
    await out;
    expect(await session.waitForFinish(1000)).toBe("idle");
  });
});

describe("ClaudeSession: options, resume, history", () => {
  it("passes the session options to the SDK through the seam", async () => {
    const hooks = { PostToolUse: [] };
    const { fake, send } = scriptedSession({
      model: "claude-sonnet-4-5",
      allowedTools: ["Read"],
      maxTurns: 3,
      env: { PATH: "/bin" },
      hooks,
    });
    await send("hi", 0);
    expect(fake.query.options).toMatchObject({
      cwd: "/work",
      model: "claude-sonnet-4-5",
      permissionMode: "default",
      settingSources: ["user", "project", "local"],
      allowedTools: ["Read"],
      maxTurns: 3,
      env: { PATH: "/bin" },
      hooks,
      includePartialMessages: true,
    });
    expect(fake.query.options.canUseTool).toBeUndefined();
    expect(fake.queries).toHaveLength(1);
  });

  it("resumes: earlier messages start the history, then the new turn follows", async () => {
    const history = historyExchange(
      { uuid: "h1", text: "earlier question" },
      { uuid: "h2", messageId: "old-m", text: "earlier answer" },
    );
    const calls: unknown[] = [];
    const { fake, session, send } = scriptedSession({
      resume: "22222222-2222-4222-8222-222222222222",
      env: { CLAUDE_CONFIG_DIR: "/tmp/cfg" },
      historyLoader: (id, where) => {
        calls.push([id, where]);
        return Promise.resolve(history);
      },
    });
    expect(session.sessionId).toBe("22222222-2222-4222-8222-222222222222");
    const { stream, stamp } = await send("and now?", 0);
    expect(fake.query.options.resume).toBe("22222222-2222-4222-8222-222222222222");
    await fake.query.feed(...reply(stamp, "m1", "now this"));
    await collect(stream);
    const entries = [];
    for await (const e of session.streamHistory()) entries.push(e);
    expect(entries.map((e) => e.text)).toEqual([
      "earlier question",
      "earlier answer",
      "and now?",
      "now this",
    ]);
    expect(calls).toEqual([
      [
        "22222222-2222-4222-8222-222222222222",
        { cwd: "/work", env: { CLAUDE_CONFIG_DIR: "/tmp/cfg" } },
      ],
    ]);
  });

  it("reads a resumed session's history only when it is asked for", async () => {
    let reads = 0;
    const { fake, session, send } = scriptedSession({
      resume: "55555555-5555-4555-8555-555555555555",
      historyLoader: () => {
        reads++;
        return Promise.resolve([]);
      },
    });
    const { stream, stamp } = await send("hi", 0);
    await fake.query.feed(...reply(stamp, "m1", "hello"));
    await collect(stream);
    expect(reads).toBe(0);
    for await (const e of session.streamHistory()) void e;
    for await (const e of session.streamHistory()) void e;
    expect(reads).toBe(1);
  });

  it("keeps live history when the resumed transcript cannot be read", async () => {
    const { fake, session, send } = scriptedSession({
      resume: "33333333-3333-4333-8333-333333333333",
      historyLoader: () => Promise.reject(new Error("ENOENT")),
    });
    const { stream, stamp } = await send("hi", 0);
    await fake.query.feed(...reply(stamp, "m1", "hello"));
    await collect(stream);
    const entries = [];
    for await (const e of session.streamHistory()) entries.push(e);
    expect(entries.map((e) => e.text)).toEqual(["hi", "hello"]);
  });

  it("stops a background task through the query", async () => {
    const { fake, session } = scriptedSession();
    session.start();
    await session.stopBackgroundTask("t1");
    expect(fake.query.stoppedTasks).toEqual(["t1"]);
  });
});

describe("ClaudeSession: debug logs", () => {
  it("logs turn transitions, routing decisions, run lifecycle and timeline assembly", async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level: "debug" },
      { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    );
    const { fake, send } = scriptedSession({ logger });
    const { stream, stamp } = await send("hi", 0);
    await fake.query.feed(...reply(stamp, "m1", "Hello"));
    await collect(stream);
    const msgs = lines.filter((l) => l.level === 20).map((l) => l.msg);
    expect(msgs).toEqual(
      expect.arrayContaining([
        "turn: transition",
        "route: event -> run",
        "run: transition",
        "timeline: entry created",
        "timeline: message finalized",
      ]),
    );
    const routed = lines.find((l) => l.msg === "route: event -> run" && l.runId === stream.runId);
    expect(routed).toMatchObject({ decision: { kind: "run" } });
    expect(lines.find((l) => l.msg === "timeline: entry created")).toMatchObject({
      messageId: "m1",
    });
  });
});
