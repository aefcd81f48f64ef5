/**
 * What `npm run demo` prints: on the default port, the client lines need no `--url`, so the
 * `send` line is the README's recorded command word for word (README.md "Try it offline").
 */
import { describe, expect, it } from "vitest";
import { demoBanner, urlFlag } from "../../../src/demo/main.js";
import { CHAT_HERE_LINE, chatsHere } from "../../../src/demo/chat.js";
import { DEMO_PROMPTS } from "../../../src/demo/rules.js";

describe("urlFlag: --url only where the terminal client would not find the demo", () => {
  it.each([
    ["the default port", "http://127.0.0.1:3008", {}, ""],
    ["another port", "http://127.0.0.1:3010", {}, " --url http://127.0.0.1:3010"],
    ["A2A_URL naming the demo", "http://127.0.0.1:3008", { A2A_URL: "http://localhost:3008/" }, ""],
    [
      "A2A_URL naming another agent",
      "http://127.0.0.1:3008",
      { A2A_URL: "http://127.0.0.1:4000" },
      " --url http://127.0.0.1:3008",
    ],
    [
      "A2A_URL naming another host on that port",
      "http://127.0.0.1:3008",
      { A2A_URL: "http://box.example:3008" },
      " --url http://127.0.0.1:3008",
    ],
  ])("%s", (_why, url, env, expected) => {
    expect(urlFlag(url, env)).toBe(expected);
  });
});

describe("demoBanner", () => {
  const base = {
    cwd: "/tmp/claude-a2a-demo-x/workspace",
    modelUrl: "http://127.0.0.1:35481",
    worktrees: true,
    bin: "npx claude-a2a",
    temporary: true,
    env: {},
  } as const;

  it("names the recorded command, and the console, on the default port", () => {
    const text = demoBanner({ ...base, url: "http://127.0.0.1:3008" });
    expect(text).toContain(`  send:    npx claude-a2a send "${DEMO_PROMPTS.question}"\n`);
    expect(text).toContain("  chat:    npx claude-a2a chat\n");
    expect(text).toContain("  console: http://127.0.0.1:3008/console/\n");
  });

  it("gives --url on another port", () => {
    const text = demoBanner({ ...base, url: "http://127.0.0.1:3010", bin: "claude-a2a" });
    expect(text).toContain(
      `  send:    claude-a2a send --url http://127.0.0.1:3010 "${DEMO_PROMPTS.question}"\n`,
    );
    expect(text).toContain("  chat:    claude-a2a chat --url http://127.0.0.1:3010\n");
  });

  it("ends with how to chat here only when the demo chats in this terminal", () => {
    const url = "http://127.0.0.1:3008";
    expect(
      demoBanner({ ...base, url, chatHere: true })
        .trimEnd()
        .endsWith(CHAT_HERE_LINE),
    ).toBe(true);
    expect(demoBanner({ ...base, url })).not.toContain(CHAT_HERE_LINE);
  });
});

describe("chatsHere", () => {
  it.each([
    ["a terminal", { noChat: false, stdinIsTTY: true, stdoutIsTTY: true }, true],
    ["--no-chat on a terminal", { noChat: true, stdinIsTTY: true, stdoutIsTTY: true }, false],
    ["output piped", { noChat: false, stdinIsTTY: true, stdoutIsTTY: false }, false],
    ["input piped (a script)", { noChat: false, stdinIsTTY: false, stdoutIsTTY: true }, false],
  ])("%s", (_why, o, expected) => {
    expect(chatsHere(o)).toBe(expected);
  });
});
