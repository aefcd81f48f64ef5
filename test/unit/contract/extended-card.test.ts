import { describe, expect, it } from "vitest";
import { agentCardJson, buildAgentCard } from "../../../src/a2a/card/agent-card.js";
import { buildExtendedCard, WORKSPACE_EXTENSION_URI } from "../../../src/contract/extended-card.js";
import { resolveConfig } from "../../../src/config/load.js";

const config = resolveConfig(
  { server: { auth: { tokens: [{ name: "ci", sha256: "a".repeat(64) }] } } },
  { file: "t.json", startDir: "/work" },
);
const card = buildAgentCard(config, { version: "1.0.0" });

describe("extended card", () => {
  const extended = buildExtendedCard(card, {
    model: "claude-opus-4",
    permissionMode: "acceptEdits",
    commands: [
      { name: "test", description: "Run the tests" },
      { name: "ship", description: undefined },
    ],
    agents: [{ name: "reviewer", description: "Reviews diffs" }],
  });
  const json = agentCardJson(extended) as Record<string, unknown> & {
    capabilities: { extensions?: unknown[] };
    skills: { id: string }[];
  };
  const publicJson = agentCardJson(card) as typeof json;

  it("adds the workspace's model and permission mode as a data-only extension, after the public ones", () => {
    // The events extension, the control one (server.control.steer is on by default) and the
    // generations one (replay.enabled is on by default).
    expect(publicJson.capabilities.extensions).toHaveLength(3);
    expect(json.capabilities.extensions).toEqual([
      ...(publicJson.capabilities.extensions ?? []),
      {
        uri: WORKSPACE_EXTENSION_URI,
        description: "The Claude Code settings this agent runs with.",
        params: { model: "claude-opus-4", permissionMode: "acceptEdits" },
      },
    ]);
    const noModel = buildExtendedCard(card, {
      model: undefined,
      permissionMode: "plan",
      commands: [],
      agents: [],
    });
    expect(noModel.capabilities?.extensions.at(-1)?.params).toEqual({ permissionMode: "plan" });
  });

  it("lists the project's slash commands and subagents as skills after the configured ones", () => {
    expect(json.skills).toEqual([
      ...publicJson.skills,
      {
        id: "command:test",
        name: "/test",
        description: "Run the tests",
        tags: ["slash-command"],
        examples: ["/test"],
      },
      {
        id: "command:ship",
        name: "/ship",
        description: "The project's /ship slash command.",
        tags: ["slash-command"],
        examples: ["/ship"],
      },
      { id: "agent:reviewer", name: "reviewer", description: "Reviews diffs", tags: ["subagent"] },
    ]);
  });

  it("is otherwise the public card: same interfaces, security and capabilities", () => {
    const { capabilities: _c, skills: _s, ...rest } = json;
    const { capabilities: _pc, skills: _ps, ...publicRest } = publicJson;
    expect(rest).toEqual(publicRest);
    expect({ ...json.capabilities, extensions: undefined }).toEqual({
      ...publicJson.capabilities,
      extensions: undefined,
    });
    expect(json.capabilities).toMatchObject({ extendedAgentCard: true });
  });
});
