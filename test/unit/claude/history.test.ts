import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { childConfigDir, defaultHistoryLoader } from "../../../src/claude/history.js";

const SESSION = "44444444-4444-4444-8444-444444444444";
const root = mkdtempSync(join(tmpdir(), "claude-history-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function writeTranscript(configDir: string, projectDir: string): void {
  const dir = join(configDir, "projects", projectDir);
  mkdirSync(dir, { recursive: true });
  const base = {
    isSidechain: false,
    userType: "external",
    cwd: "/w",
    sessionId: SESSION,
    version: "2.1.332",
  };
  const lines = [
    {
      ...base,
      parentUuid: null,
      type: "user",
      uuid: "u1",
      timestamp: "2025-01-01T00:00:00.000Z",
      message: { role: "user", content: "hello" },
    },
    {
      ...base,
      parentUuid: "u1",
      type: "assistant",
      uuid: "a1",
      timestamp: "2025-01-01T00:00:01.000Z",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "m",
        content: [{ type: "text", text: "hi there" }],
      },
    },
  ];
  writeFileSync(
    join(dir, `${SESSION}.jsonl`),
    lines.map((l) => JSON.stringify(l)).join("\n") + "\n{torn",
  );
}

describe("history", () => {
  it("finds the child's config dir from its environment", () => {
    expect(childConfigDir(undefined)).toBeUndefined();
    expect(childConfigDir({ CLAUDE_CONFIG_DIR: "/c", HOME: "/h" })).toBe("/c");
    expect(childConfigDir({ HOME: "/h" })).toBe(join("/h", ".claude"));
    expect(childConfigDir({ PATH: "/bin" })).toBeUndefined();
  });

  it("reads a resumed transcript from the child's config dir, not this process's", async () => {
    const configDir = join(root, "config");
    writeTranscript(configDir, "some-project-slug");
    const messages = await defaultHistoryLoader(SESSION, {
      cwd: "/w",
      env: { CLAUDE_CONFIG_DIR: configDir },
    });
    expect(messages.map((m) => [m.type, m.uuid])).toEqual([
      ["user", "u1"],
      ["assistant", "a1"],
    ]);
  });

  it("returns no messages for an unknown session", async () => {
    const messages = await defaultHistoryLoader("55555555-5555-4555-8555-555555555555", {
      cwd: "/w",
      env: { CLAUDE_CONFIG_DIR: join(root, "empty") },
    });
    expect(messages).toEqual([]);
  });
});
