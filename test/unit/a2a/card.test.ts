import { AgentCard } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { agentCardJson, buildAgentCard } from "../../../src/a2a/card.js";
import { resolveConfig } from "../../../src/config/load.js";
import type { ConfigInput } from "../../../src/config/schema.js";

function config(input: ConfigInput = {}) {
  return resolveConfig(input, { file: "test.json", startDir: "/work" });
}

type WireCard = {
  supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[];
  capabilities: Record<string, unknown>;
  skills: Record<string, unknown>[];
} & Record<string, unknown>;

const wire = (input?: ConfigInput, version = "9.9.9") =>
  agentCardJson(buildAgentCard(config(input), { version })) as WireCard;

describe("agent card", () => {
  it("advertises JSON-RPC first and HTTP+JSON second on the default public URL", () => {
    expect(wire().supportedInterfaces).toEqual([
      {
        url: "http://localhost:3008/a2a/jsonrpc",
        protocolBinding: "JSONRPC",
        protocolVersion: "1.0",
      },
      {
        url: "http://localhost:3008/a2a/rest",
        protocolBinding: "HTTP+JSON",
        protocolVersion: "1.0",
      },
    ]);
  });

  it("honours server.publicUrl and the port", () => {
    const urls = (input: ConfigInput) => wire(input).supportedInterfaces.map((i) => i.url);
    expect(urls({ server: { publicUrl: "https://m.tailnet.ts.net/" } })).toEqual([
      "https://m.tailnet.ts.net/a2a/jsonrpc",
      "https://m.tailnet.ts.net/a2a/rest",
    ]);
    expect(urls({ server: { port: 4000 } })[0]).toBe("http://localhost:4000/a2a/jsonrpc");
  });

  it("has no internal $case anywhere in the wire form", () => {
    const json = JSON.stringify(
      wire({ agentCard: { provider: { organization: "Acme", url: "https://acme.example" } } }),
    );
    expect(json).not.toContain("$case");
    expect(json).toContain('"organization":"Acme"');
  });

  it("states the capabilities the server has", () => {
    expect(wire().capabilities).toEqual({
      streaming: true,
      pushNotifications: false,
      extendedAgentCard: false,
    });
    expect(wire({ agentCard: { capabilities: { pushNotifications: true } } }).capabilities).toEqual(
      { streaming: true, pushNotifications: true, extendedAgentCard: false },
    );
  });

  it("takes texts and skills from the config, the version from the package by default", () => {
    const card = wire({
      agentCard: {
        name: "My Agent",
        description: "Does things.",
        skills: [{ id: "s1", name: "Skill", description: "One skill", examples: ["do x"] }],
      },
    });
    expect(card).toMatchObject({ name: "My Agent", description: "Does things.", version: "9.9.9" });
    expect(card.skills).toEqual([
      { id: "s1", name: "Skill", description: "One skill", tags: [], examples: ["do x"] },
    ]);
    expect(wire({ agentCard: { version: "2.0.0" } }).version).toBe("2.0.0");
  });

  it("keeps the lists the spec requires even when empty", () => {
    const card = wire({ agentCard: { skills: [], defaultOutputModes: [] } });
    expect(card.skills).toEqual([]);
    expect(card.defaultOutputModes).toEqual([]);
  });

  it("round-trips through the SDK's parser", () => {
    const built = buildAgentCard(config(), { version: "1.2.3" });
    expect(AgentCard.fromJSON(agentCardJson(built))).toEqual(built);
  });
});
