import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/load.js";
import type { ConfigInput } from "../../../src/config/schema.js";
import { describePassthrough, passthroughOptions } from "../../../src/sessions/session-options.js";

const claudeOf = (claude: ConfigInput["claude"]) =>
  resolveConfig({ claude: { cwd: "/work/api", ...claude } }, { file: "t.json", startDir: "/work" })
    .claude;

describe("passthroughOptions", () => {
  it("passes nothing when nothing is configured", () => {
    expect(passthroughOptions(claudeOf({}), undefined)).toEqual({});
    expect(describePassthrough(claudeOf({}))).toBeUndefined();
  });

  it("passes each configured option as the Agent SDK takes it", () => {
    const claude = claudeOf({
      effort: "high",
      fallbackModel: "claude-haiku-4-5",
      systemPrompt: { append: "Answer in French." },
      mcpServers: { files: { command: "mcp-files", args: ["--ro"] } },
      agents: { reviewer: { description: "Reviews diffs", prompt: "You review." } },
      additionalDirectories: ["../shared", "/opt/docs"],
    });
    expect(passthroughOptions(claude, undefined)).toEqual({
      effort: "high",
      fallbackModel: "claude-haiku-4-5",
      systemPrompt: "Answer in French.",
      mcpServers: { files: { command: "mcp-files", args: ["--ro"] } },
      agents: { reviewer: { description: "Reviews diffs", prompt: "You review." } },
      // Relative to claude.cwd (the workspace), not to the session's cwd.
      additionalDirectories: ["/work/shared", "/opt/docs"],
    });
  });

  it("adds claude.env to a whole copy of the child's environment (the SDK replaces, never merges)", () => {
    const claude = claudeOf({ env: { API_MODE: "test", RETRIES: 3 } });
    expect(passthroughOptions(claude, { PATH: "/bin", API_MODE: "prod" }).env).toEqual({
      PATH: "/bin",
      API_MODE: "test",
      RETRIES: "3",
    });
    expect(passthroughOptions(claude, undefined, { HOME: "/h" }).env).toEqual({
      HOME: "/h",
      API_MODE: "test",
      RETRIES: "3",
    });
  });

  it("describes them for the log by names only: no env value, header or prompt text", () => {
    const claude = claudeOf({
      env: { SECRET_TOKEN: "s3cr3t-value" },
      systemPrompt: { append: "private instructions" },
      mcpServers: {
        remote: { type: "http", url: "https://mcp.example.com", headers: { Authorization: "hdr" } },
      },
      allowedModels: ["claude-opus-4-5"],
    });
    const summary = describePassthrough(claude);
    expect(summary).toEqual({
      envNames: ["SECRET_TOKEN"],
      systemPromptAppendChars: 20,
      mcpServers: ["remote"],
      allowedModels: ["claude-opus-4-5"],
    });
    expect(JSON.stringify(summary)).not.toMatch(/s3cr3t|private|hdr/);
  });
});
