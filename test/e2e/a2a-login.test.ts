/**
 * No credentials on the machine running the server (no API key, no `claude` login in the child's
 * config dir): the runtime fails every turn at once, without calling the model, in words meant for
 * its own terminal ("Please run /login"). The client is told what to do on the server instead, the
 * runtime's words go to the log, and the server warns once at startup but serves anyway.
 */
import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { TEXT } from "../../src/contract/texts.js";
import {
  a2aClient,
  messageText,
  sendForTask,
  serverProcess,
  userMessage,
  type ServerProcess,
} from "../support/harness/index.js";

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
    const p = await serverProcess({ deferStart: true });
    const { bench } = p;
    // The sandbox's HOME and CLAUDE_CONFIG_DIR are empty: without the key there is no login.
    const { ANTHROPIC_API_KEY: _key, ...noCredentials } = bench.sandbox.env;
    const server = await p.spawn({ env: noCredentials });
    const client = await a2aClient(server.url);

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
    // What to do now: log in, or try it offline on the scripted model.
    const [warning] = startup;
    expect(warning?.msg).toContain("run `claude` once and log in, or set ANTHROPIC_API_KEY");
    expect(warning?.msg).toContain(
      "to serve this directory offline on a scripted model: claude-a2a --scripted <rules.json>",
    );
    expect(warning?.msg).toContain(
      "to try the demo: npm run demo, or claude-a2a demo when installed",
    );
    expect(warning?.fix).toContain("claude-a2a --scripted <rules.json>");
  });
});
