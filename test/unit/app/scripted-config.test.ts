import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/load.js";
import { scriptedConfig, scriptedRefusal } from "../../../src/app/scripted-config.js";

const config = (input: Parameters<typeof resolveConfig>[0]) =>
  resolveConfig(input, { file: "(test)", startDir: "/srv/project" });

describe("scriptedConfig", () => {
  it("keeps nothing that could leave the machine or write the project's real state", () => {
    const c = scriptedConfig(
      config({
        store: { type: "postgres", url: "postgres://db.example/claude" },
        claude: {
          settingSources: ["user", "project"],
          permissionMode: "acceptEdits",
          env: { ANTHROPIC_BASE_URL: "https://api.example", KEEP: "1", CLAUDE_CONFIG_DIR: "/x" },
          mcpServers: { web: { type: "http", url: "https://mcp.example" } },
        },
        tracing: { enabled: true, otlpEndpoint: "https://otel.example/v1/traces" },
        peers: { agents: { other: { url: "https://peer.example" } } },
      }),
    );
    expect(c.store).toEqual({ type: "memory" });
    expect(c.claude.settingSources).toEqual([]);
    expect(c.claude.env).toEqual({ KEEP: "1" });
    expect(c.claude.mcpServers).toBeUndefined();
    expect(c.tracing.enabled).toBe(false);
    expect(c.peers.agents).toEqual({});
    // The rest of the user's config stands.
    expect(c.claude.permissionMode).toBe("acceptEdits");
    expect(c.claude.cwd).toBe("/srv/project");
  });

  it("refuses workspaces, serves one directory", () => {
    expect(scriptedRefusal(config({}))).toBeUndefined();
    expect(scriptedRefusal(config({ workspaces: { api: { cwd: "/srv/api" } } }))).toMatch(
      /one directory/,
    );
  });
});
