/**
 * `claude-a2a chat` in a pseudo-terminal against a plain A2A agent that is not ours (the SDK's
 * server pieces): its plain-text input-required prompt is answered in free text, and a task the
 * agent starts by itself in the conversation is shown as it arrives.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEchoAgent, type EchoAgent } from "../support/client/echo-agent.js";
import { KEY, runInTerminal, type Terminal } from "../support/client/pty.js";

let agent: EchoAgent;
let dir: string;
let term: Terminal | undefined;

beforeEach(async () => {
  agent = await startEchoAgent();
  dir = await mkdtemp(join(tmpdir(), "claude-a2a-chat-echo-"));
});
afterEach(async () => {
  term?.kill();
  await term?.exited;
  term = undefined;
  await agent.close();
  await rm(dir, { recursive: true, force: true });
});

function chat(color = false): Terminal {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: dir, NO_COLOR: "1" };
  delete env.A2A_URL;
  delete env.FORCE_COLOR;
  if (color) delete env.NO_COLOR;
  term = runInTerminal(["chat", "--url", agent.url], env, process.cwd());
  return term;
}

describe("claude-a2a chat against a plain A2A agent", () => {
  it("streams answers, answers a plain-text prompt, and shows a task the agent starts by itself", async () => {
    const t = chat();
    let at = await t.waitFor("Echo at ");
    at = await t.waitFor("Ctrl-C during a turn cancels it", { from: at });
    t.write("hello\r");
    at = await t.waitFor("echo: hello", { from: at });
    at = await t.waitFor("[completed]", { from: at });

    t.write("ask me\r");
    at = await t.waitFor("Reply:", { from: at });
    t.write("Ada\r");
    at = await t.waitFor("hello Ada", { from: at });
    at = await t.waitFor("[completed]", { from: at });
    // The answer went to the parked task.
    expect(agent.received[2]?.taskId).toBe(agent.received[1]?.taskId);

    t.write("later job\r");
    at = await t.waitFor("started background work", { from: at });
    at = await t.waitFor(/\[background\] task \S+ \(autonomous\)/, { from: at });
    at = await t.waitFor("background: job done", { from: at });
    await t.waitFor("[completed]", { from: at });
    // Every message of the chat went to one context.
    expect(new Set(agent.received.map((m) => m.contextId)).size).toBe(1);
    t.write("/exit\r");
    expect(await t.exited).toBe(0);
  });

  it("Ctrl-C at an input-required prompt cancels that task; the chat goes on", async () => {
    const t = chat();
    let at = await t.waitFor("Ctrl-C during a turn cancels it");
    t.write("ask me\r");
    at = await t.waitFor("Reply:", { from: at });
    t.write(KEY.ctrlC);
    at = await t.waitFor("canceling the task", { from: at });
    at = await t.waitFor("[canceled]", { from: at });
    t.write("hello again\r");
    at = await t.waitFor("echo: hello again", { from: at });
    await t.waitFor("[completed]", { from: at });
    t.write("/exit\r");
    expect(await t.exited).toBe(0);
  });

  it("uses colours on a terminal, and none at all with NO_COLOR", async () => {
    // eslint-disable-next-line no-control-regex
    const SGR = /\x1b\[[0-9;]*m/;
    for (const color of [true, false]) {
      const t = chat(color);
      let at = await t.waitFor("Ctrl-C during a turn cancels it");
      t.write("fail\r");
      at = await t.waitFor("[failed]", { from: at });
      await t.waitFor("echo agent failed on purpose", { from: at });
      expect(SGR.test(t.raw())).toBe(color);
      t.write(KEY.ctrlC);
      expect(await t.exited).toBe(0);
    }
  });
});
