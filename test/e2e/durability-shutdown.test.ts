/**
 * Graceful shutdown of a real server process: SIGTERM during a run ends the task with a clear
 * status that the open stream receives, leaves no Claude Code process behind, and exits 0.
 */
import { afterEach, describe, expect, it } from "vitest";
import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import { ClientFactory } from "@a2a-js/sdk/client";
import { startTestBench, type TestBench } from "../support/bench.js";
import { reply, text } from "../support/fake-model/index.js";
import {
  describeStream,
  freePort,
  messageText,
  sendRequest,
  userMessage,
} from "../support/a2a/harness.js";
import { watch } from "../support/a2a/watch.js";
import {
  endProcessTest,
  processesWithConfigDir,
  spawnServer,
  writeTestConfig,
  type ServerProcess,
} from "../support/server-process.js";

let bench: TestBench | undefined;
const servers: ServerProcess[] = [];
afterEach(async () => {
  await endProcessTest(servers.splice(0), bench);
  bench = undefined;
});

const SLOW = { chunkSize: 4, chunkDelayMs: 100 } as const;
const LONG_TEXT =
  "This answer streams slowly, one small piece after another, for a long while, " +
  "long enough for the server to be stopped in the middle of it.";

describe("durability: graceful shutdown", () => {
  it("SIGTERM during a run: the stream gets the task's end, no Claude Code process remains, exit code 0", async () => {
    bench = await startTestBench([
      { match: { lastUserText: "Write slowly" }, reply: reply(text(LONG_TEXT), SLOW) },
    ]);
    const { cwd, env, configDir } = bench.sandbox;
    await writeTestConfig(cwd);
    const server = await spawnServer({ cwd, port: await freePort(), env });
    servers.push(server);
    const client = await new ClientFactory().createFromUrl(server.url);
    const stream = watch(client.sendMessageStream(sendRequest(userMessage("Write slowly"))));
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
  }, 120_000);
});
