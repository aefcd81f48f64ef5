/**
 * Graceful shutdown of a real server process: SIGTERM during a run ends the task with a status
 * naming the shutdown that the open stream receives, stops background jobs with their Claude Code
 * process (a task waiting for one says so), leaves no process behind, and exits 0; a second
 * signal exits at once (130).
 */
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { JSONRPC_PATH } from "../../src/a2a/card/agent-card.js";
import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import {
  a2aClient,
  describeStream,
  headTask,
  messageText,
  processesWithCommandLine,
  processesWithConfigDir,
  serverProcess,
  streamsSlowly,
  watchMessage,
} from "../support/harness/index.js";
import { conversationKeyOf, startJobRules } from "../support/a2a/background.js";

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
