/**
 * A real server process stopped and started again, and the work it stops. Restart recovery:
 * SIGKILL while a task runs, start again on the same workspace; the task is FAILED with the
 * restart message, and the context's next message continues the conversation. SIGKILL while it
 * waits on a permission: it stays input-required (restart-answers.test.ts answers one), carrying
 * the usage read from its transcript (issue 31; the cost estimate died with the process,
 * docs/limits.md: it is 0). Graceful shutdown: SIGTERM ends the task with a status
 * naming the shutdown that the open stream receives, stops background jobs with their Claude
 * Code process, leaves no process behind, and exits 0; a second signal exits at once (130).
 * `sessions.maxBackgroundMs`: a background job that never ends is stopped once its session has
 * had nothing else to do for that long, and the task waiting for it hears why.
 *
 * Each test starts its own server: they kill it, or configure it differently.
 */
import { connect } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import { JSONRPC_PATH } from "../../src/a2a/card/agent-card.js";
import { KIND } from "../../src/contract/kinds.js";
import { TEXT } from "../../src/contract/texts.js";
import { usageOf } from "../../src/contract/usage.js";
import {
  a2a,
  a2aClient,
  afterTool,
  describeStream,
  headTask,
  idsOf,
  killSandboxProcesses,
  lastStatus,
  messageText,
  processesWithCommandLine,
  processesWithConfigDir,
  reply,
  resultOf,
  says,
  sendForTask,
  serverProcess,
  streamMessage,
  streamsSlowly,
  text,
  userMessage,
  watchMessage,
  writes,
  transcriptHasModelCall,
} from "../support/harness/index.js";
import {
  conversationKeyOf,
  isWakeRequest,
  mappedConversationKey,
  startJobRules,
} from "../support/a2a/background.js";

describe("durability: restart recovery", () => {
  it("SIGKILL during a running task: after a restart the task is FAILED with the restart message, and the next message continues the conversation", async () => {
    const p = await serverProcess({
      rules: [streamsSlowly("Tell me about kiwis", 100), says("Go on", "Continuing about kiwis.")],
      deferStart: true,
    });
    const { bench } = p;
    const first = await p.spawn();
    const client = await a2aClient(first.url);

    const stream = watchMessage(client, "Tell me about kiwis");
    const head = await stream.first(() => true);
    await stream.first((e: StreamResponse) => e.payload?.$case === "artifactUpdate");
    const task = head.payload?.$case === "task" ? head.payload.value : undefined;
    if (!task) throw new Error("expected a task first");

    first.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    await stream.done.catch(() => undefined);
    // What the dead server left behind is not this item's subject: stop it before restarting.
    await killSandboxProcesses(bench.sandbox.configDir);

    const second = await p.spawn();
    const client2 = await a2aClient(second.url);
    const failed = await client2.getTask({ tenant: "", id: task.id, historyLength: undefined });
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(failed.status?.message?.metadata).toEqual({ kind: KIND.serverRestarted });
    expect(messageText(failed.status?.message)).toBe(TEXT.restartedWhileRunning);

    const next = await sendForTask(client2, userMessage("Go on", { contextId: task.contextId }));
    expect(next.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultOf(next)).toBe("Continuing about kiwis.");
    // The model sees the earlier exchange: the session was resumed.
    const request = bench.model.messageRequests.at(-1);
    expect(JSON.stringify(request?.body.messages)).toContain("Tell me about kiwis");
    expect(bench.model.unmatched).toEqual([]);
  }, 180_000);
});

describe("restart recovery: the recovered task's usage", () => {
  it("SIGKILL while a permission is asked: after a restart the task still asks (input-required) and carries the asking call's tokens", async () => {
    const p = await serverProcess({ deferStart: true });
    const outside = join(p.bench.sandbox.root, "outside.txt");
    p.bench.model.setRules([
      writes("Save the report", outside, "x", "write-outside"),
      afterTool(true, "Not saved.", "after"),
    ]);
    const first = await p.spawn();
    const client = await a2aClient(first.url);
    const events = await streamMessage(client, "Save the report");
    expect(lastStatus(events).kind).toBe("permission_request");
    const { taskId } = idsOf(events);
    // The call that asked is on disk before the server dies: what recovery reads outlived it.
    await expect
      .poll(() => transcriptHasModelCall(p.bench.sandbox.configDir), { timeout: 30_000 })
      .toBe(true);

    first.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    await killSandboxProcesses(p.bench.sandbox.configDir);

    const second = await p.spawn();
    const kept = await (
      await a2aClient(second.url)
    ).getTask({ tenant: "", id: taskId, historyLength: 0 });
    // Kept for an answer across the restart (restart-answers.test.ts answers one).
    expect(kept.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(kept.status?.message?.metadata).toEqual({
      kind: KIND.permissionRequest,
      restarted: true,
    });
    const usage = usageOf(kept.metadata);
    expect(usage).toMatchObject({ runs: 1, costUsd: 0 });
    // The asking call at least; the runtime the dead server left may have gone on (its
    // permission answered by the broken pipe) and called again before it was stopped: counted too.
    expect(usage?.modelTurns).toBeGreaterThanOrEqual(1);
    expect(usage?.inputTokens).toBeGreaterThan(0);
    expect(usage?.outputTokens).toBeGreaterThan(0);
    expect(Object.keys(usage?.models ?? {})).toHaveLength(1);
  }, 180_000);
});

describe("durability: graceful shutdown", () => {
  it("SIGTERM during a run: the stream gets the task's end, no Claude Code process remains, exit code 0", async () => {
    const p = await serverProcess({
      rules: [streamsSlowly("Write slowly", 100)],
    });
    const { bench, server: server } = p;
    const { configDir } = bench.sandbox;
    const client = await p.connect();
    const stream = watchMessage(client, "Write slowly");
    await stream.first((e: StreamResponse) => e.payload?.$case === "artifactUpdate");
    const claude = (await processesWithConfigDir(configDir)).filter((p) => p !== server.pid);
    expect(claude.length).toBeGreaterThan(0);

    server.kill("SIGTERM");
    const events = await stream.done;
    const exit = await server.exited;
    expect(exit, server.output()).toEqual({ code: 0, signal: null });

    const last = events.at(-1);
    const status = last?.payload?.$case === "statusUpdate" ? last.payload.value.status : undefined;
    expect(describeStream(events).at(-1)).toMatch(/^status:(failed|canceled)/);
    expect([TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED]).toContain(status?.state);
    // The status names the shutdown, not a generic "session closed".
    expect(messageText(status?.message)).toBe(
      "Claude's run was interrupted: the server is stopping",
    );
    // Every Claude Code process the server started is gone.
    for (const pid of claude) {
      expect(await processesWithConfigDir(configDir)).not.toContain(pid);
    }

    // The store and the session map were flushed before the exit: a new server finds the task
    // as it ended (a lost write would leave it working, and the new server would fail it as
    // "restarted"), and the context's session still mapped.
    const { id, contextId } = headTask(events);
    expect(await conversationKeyOf(bench.sandbox.cwd, contextId)).toBeDefined();
    const next = await p.spawn();
    const again = await a2aClient(next.url);
    const stored = await again.getTask({ tenant: "", id, historyLength: undefined });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(messageText(stored.status?.message)).toBe(
      "Claude's run was interrupted: the server is stopping",
    );
  }, 120_000);

  it("SIGTERM while a task waits for its background job: the job's process is gone, the task says the server stopped, exit code 0", async () => {
    const marker = `700.${process.pid}${Date.now() % 100_000}`;
    const p = await serverProcess({ rules: startJobRules(`sleep ${marker}`), deferStart: true });
    const server = await p.spawn();
    const client = await a2aClient(server.url);
    const stream = watchMessage(client, "Start the job");
    await stream.first(
      (e) =>
        e.payload?.$case === "statusUpdate" &&
        e.payload.value.status?.message?.metadata?.kind === "background_wait",
    );
    await expect.poll(() => processesWithCommandLine(marker), { timeout: 20_000 }).not.toEqual([]);

    server.kill("SIGTERM");
    const events = await stream.done;
    const exit = await server.exited;
    expect(exit, server.output()).toEqual({ code: 0, signal: null });
    // The open stream hears why the work stopped, and the task ends with the answer it had.
    expect(describeStream(events).slice(-3)).toEqual([
      "status:working:background_stopped",
      "status:working:result",
      "status:completed",
    ]);
    const stopped = events.find(
      (e) =>
        e.payload?.$case === "statusUpdate" &&
        e.payload.value.status?.message?.metadata?.kind === "background_stopped",
    );
    const message =
      stopped?.payload?.$case === "statusUpdate"
        ? stopped.payload.value.status?.message
        : undefined;
    expect(messageText(message)).toMatch(
      /^Background task Run the job \(\w+\) stopped: the server is stopping\.$/,
    );
    // Closing its Claude Code process took the job with it.
    await expect.poll(() => processesWithCommandLine(marker), { timeout: 20_000 }).toEqual([]);
  }, 120_000);

  it("a second signal during the shutdown exits at once, with code 130", async () => {
    const p = await serverProcess({ deferStart: true });
    const server = await p.spawn();
    // A request whose body never finishes keeps its connection busy: the shutdown then waits its
    // 2 s for open streams before it cuts the connections, so it is still under way below.
    const hanging = connect(Number(new URL(server.url).port), "127.0.0.1");
    await new Promise<void>((resolve) => hanging.once("connect", resolve));
    hanging.on("error", () => undefined);
    hanging.write(
      `POST ${JSONRPC_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        "Content-Length: 1000\r\n\r\n{",
    );

    server.kill("SIGTERM");
    // "stopping" is logged as the shutdown begins, once the second-signal guard is in place.
    await expect.poll(() => server.stdout(), { timeout: 20_000 }).toContain('"msg":"stopping"');
    server.kill("SIGTERM");
    const exit = await server.exited;
    hanging.destroy();
    expect(exit, server.output()).toEqual({ code: 130, signal: null });
    expect(server.stdout()).toContain("second signal: exiting now");
  }, 60_000);
});

describe("durability: sessions.maxBackgroundMs", () => {
  it("a never-ending background job is stopped after the limit: its process is gone and the waiting task says why", async () => {
    const h = await a2a({
      config: {
        sessions: { maxBackgroundMs: 3_000 },
        claude: { backgroundWaitTimeoutMs: 600_000 },
      },
    });
    // A command line unique to this test, so the scan finds this job's process and no other.
    const marker = `900.${process.pid}${Date.now() % 100_000}`;
    h.bench.model.setRules([
      ...startJobRules(`sleep ${marker}`),
      {
        name: "wake",
        match: { when: isWakeRequest },
        reply: reply(text("The job was stopped.")),
      },
    ]);
    const stream = h.watch("Start the job");
    const isKind = (kind: string) => (e: (typeof stream.items)[number]) =>
      e.payload?.$case === "statusUpdate" &&
      e.payload.value.status?.message?.metadata?.kind === kind;
    await stream.first(isKind("background_wait"));
    await expect.poll(() => processesWithCommandLine(marker), { timeout: 20_000 }).not.toEqual([]);
    const { contextId } = headTask(stream.items);
    // The context's live session, by its pool key: it has the job while it runs.
    const cwd = h.bench.sandbox.cwd;
    await expect.poll(() => conversationKeyOf(cwd, contextId), { timeout: 20_000 }).toBeDefined();
    const key = await mappedConversationKey(cwd, contextId);
    const jobs = () => h?.server.pool.peek(key)?.backgroundTasks().length ?? 0;
    expect(jobs()).toBe(1);

    const stopped = await stream.first(isKind("background_stopped"));
    const message = stopped.payload?.$case === "statusUpdate" ? stopped.payload.value : undefined;
    expect(messageText(message?.status?.message)).toMatch(
      /^Background task Run the job \(\w+\) stopped: the server stopped it after 3 s with no other activity in its session \(sessions\.maxBackgroundMs\)\.$/,
    );
    expect(message?.status?.message?.metadata).toMatchObject({ status: "stopped" });
    // The job's process is gone, and the session has no background work keeping it busy.
    await expect.poll(() => processesWithCommandLine(marker), { timeout: 20_000 }).toEqual([]);
    await expect.poll(jobs, { timeout: 20_000 }).toBe(0);
    // Nothing is left to wait for (the runtime starts no turn for stopped work): the task ends
    // with the answer it had, and the session can be closed.
    const events = await stream.done;
    expect(describeStream(events).slice(-2)).toEqual(["status:working:result", "status:completed"]);
    expect(h.bench.model.unmatched).toEqual([]);
  }, 120_000);
});
