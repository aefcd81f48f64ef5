/**
 * The README's two commands: after `npm ci`, `npm run demo` on a terminal starts the scripted
 * model and the server on it, then chats with it in the same terminal. Run here as a person
 * types it (npm itself, in a pseudo-terminal, the real Claude Code runtime); the README's
 * recorded session is this run's screen, line for line. Then the ways out: SIGTERM while
 * chatting, and `--no-chat`, which only serves.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/a2a/harness.js";
import { commandInTerminal, KEY, runInTerminal, type Terminal } from "../support/client/pty.js";
import { BUILT_CLI } from "../support/demo/demo-process.js";
import { comparableScreen, recordedScreen } from "../support/demo/transcripts.js";
import { CHAT_HERE_LINE } from "../../src/demo/chat.js";
import { DEMO_PROMPTS } from "../../src/demo/rules.js";

/**
 * What may differ between the recording and a run, besides ids, ports and hashes: the temporary
 * folder, the package's version, and the `--port` this test adds (the recording is on the
 * default port; npm shows the option without its `--`).
 */
function comparable(text: string): string {
  return comparableScreen(text)
    .replace(/ --port \d+/g, "")
    .replace(/claude-a2a@\d+\.\d+\.\d+\S*/g, "claude-a2a@<version>");
}

/** The folder the banner says the demo serves. */
function servedDir(t: Terminal): string {
  const m = /serving (\S+) at /.exec(t.text());
  if (m?.[1] === undefined) throw new Error(`no banner:\n${t.text()}`);
  return m[1];
}

let home: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  // `npm run demo` first rebuilds dist/ when a source is newer: its output is not part of the
  // recording, so any rebuild happens here (CI's `npm test` has just built; a developer may not).
  execFileSync(process.execPath, ["scripts/build-if-stale.js"], { stdio: "ignore" });
  home = await mkdtemp(join(tmpdir(), "claude-a2a-demo-chat-"));
  env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: home,
    // A warning a loaded machine may log (a slow start) is not part of the recording.
    LOG_LEVEL: "error",
    // npm's own extras would change the screen: no update notice, no progress spinner.
    npm_config_update_notifier: "false",
    npm_config_progress: "false",
    npm_config_fund: "false",
  };
}, 300_000);
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("npm run demo on a terminal: the server, then a chat with it (real runtime)", () => {
  it("the README's recorded session: a question answered with the arrow keys, then /exit", async () => {
    const port = await freePort();
    // The client finds the demo by its URL: on the default port it is the recording's banner.
    const t = commandInTerminal(
      "npm",
      ["run", "demo", "--", "--port", String(port)],
      { ...env, A2A_URL: `http://127.0.0.1:${port}` },
      process.cwd(),
    );
    try {
      let at = await t.waitFor(CHAT_HERE_LINE, { timeoutMs: 90_000 });
      at = await t.waitFor("Type while Claude works", { from: at });
      at = await t.waitFor(">", { from: at });
      t.write(`${DEMO_PROMPTS.question}${KEY.enter}`);
      at = await t.waitFor("Which colour do you prefer?", { from: at, timeoutMs: 90_000 });
      at = await t.waitFor("select", { from: at });
      t.write(KEY.down);
      at = await t.waitFor("Choose blue", { from: at });
      t.write(KEY.enter);
      at = await t.waitFor("[completed]", { from: at, timeoutMs: 90_000 });
      await t.waitFor(">", { from: at });
      const served = servedDir(t);
      expect(existsSync(served)).toBe(true);
      t.write(`/exit${KEY.enter}`);
      expect(await t.exited).toBe(0);
      // Leaving the chat stopped the demo and removed its temporary workspace.
      expect(existsSync(served)).toBe(false);
      expect(comparable(t.screen())).toBe(
        comparable(await recordedScreen("README.md", "test/e2e/demo-chat.test.ts")),
      );
    } finally {
      t.kill();
    }
  }, 240_000);

  it("SIGTERM while it chats stops it: exit 0, the workspace removed", async () => {
    const port = await freePort();
    const t = runInTerminal(["demo", "--port", String(port)], env, process.cwd(), BUILT_CLI);
    try {
      const at = await t.waitFor(CHAT_HERE_LINE, { timeoutMs: 90_000 });
      await t.waitFor(">", { from: at });
      const served = servedDir(t);
      process.kill(t.pid, "SIGTERM");
      expect(await t.exited).toBe(0);
      expect(existsSync(served)).toBe(false);
    } finally {
      t.kill();
    }
  }, 180_000);

  it("--no-chat only serves, even on a terminal; Ctrl-C stops it", async () => {
    const port = await freePort();
    const t = runInTerminal(
      ["demo", "--port", String(port), "--no-chat"],
      env,
      process.cwd(),
      BUILT_CLI,
    );
    try {
      await t.waitFor("  console: ", { timeoutMs: 90_000 });
      const served = servedDir(t);
      // It serves: its card answers.
      const card = await fetch(`http://127.0.0.1:${port}/.well-known/agent-card.json`);
      expect(card.status).toBe(200);
      expect(t.text()).not.toContain(CHAT_HERE_LINE);
      expect(t.text()).not.toContain("Type a message.");
      t.write(KEY.ctrlC);
      expect(await t.exited).toBe(0);
      expect(existsSync(served)).toBe(false);
    } finally {
      t.kill();
    }
  }, 180_000);
});
