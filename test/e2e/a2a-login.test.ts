/**
 * No credentials on the machine running the server (no API key, no `claude` login in the child's
 * config dir): the runtime fails every turn at once, without calling the model, in words meant for
 * its own terminal ("Please run /login"). The client is told what to do on the server instead, the
 * runtime's words go to the log, and the server warns once at startup but serves anyway.
 */
import { afterEach, describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { ClientFactory } from "@a2a-js/sdk/client";
import { TEXT } from "../../src/contract/texts.js";
import {
  endProcessTest,
  freePort,
  messageText,
  sendForTask,
  spawnServer,
  startTestBench,
  userMessage,
  writeTestConfig,
  type ServerProcess,
  type TestBench,
} from "../support/harness/index.js";

let bench: TestBench | undefined;
const servers: ServerProcess[] = [];
afterEach(async () => {
  await endProcessTest(servers.splice(0), bench);
  bench = undefined;
});

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

const logLines = (server: ServerProcess): LogLine[] =>
  server
    .stdout()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogLine);

describe("A2A server: Claude Code not logged in", () => {
  it("fails each task with what to do on the server, logs the runtime's text, and warns once at startup", async () => {
    bench = await startTestBench([]);
    const { cwd, env } = bench.sandbox;
    // The sandbox's HOME and CLAUDE_CONFIG_DIR are empty: without the key there is no login.
    const { ANTHROPIC_API_KEY: _key, ...noCredentials } = env;
    await writeTestConfig(cwd);
    const server = await spawnServer({ cwd, port: await freePort(), env: noCredentials });
    servers.push(server);
    const client = await new ClientFactory().createFromUrl(server.url);

    for (const prompt of ["hello", "hello again"]) {
      const task = await sendForTask(client, userMessage(prompt));
      expect(task.status?.state, server.output()).toBe(TaskState.TASK_STATE_FAILED);
      expect(messageText(task.status?.message)).toBe(TEXT.notLoggedIn);
      const stored = await client.getTask({ tenant: "", id: task.id, historyLength: undefined });
      // The runtime's text reaches no client: not as the answer, not as an artifact.
      expect(JSON.stringify(stored)).not.toContain("/login");
    }
    // The runtime gave up before calling the model.
    expect(bench.model.requests).toEqual([]);

    await expect
      .poll(() => logLines(server).filter((l) => l.msg.startsWith("task failed: Claude Code")))
      .toHaveLength(2);
    const failures = logLines(server).filter((l) => l.msg.startsWith("task failed: Claude Code"));
    for (const line of failures) {
      expect(line.level).toBe(40);
      expect(line.runtimeText).toContain("Not logged in");
    }
    const startup = logLines(server).filter((l) =>
      l.msg.startsWith("Claude Code is not logged in on this machine"),
    );
    expect(startup).toEqual([
      expect.objectContaining({
        level: 40,
        check: "credentials",
        detail: "no API key, token or claude login found",
      }),
    ]);
  });
});
