import { AgentCard } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import {
  agentCardJson,
  buildAgentCard,
  cardDocument,
  grpcAddress,
} from "../../../../src/a2a/card/agent-card.js";
import { EVENTS_EXTENSION_URI } from "../../../../src/contract/extension.js";
import { GENERATIONS_EXTENSION_URI } from "../../../../src/contract/generations.js";
import { CONTROL_EXTENSION_URI } from "../../../../src/contract/control.js";
import { legacyAgentCardJson } from "../../../../src/a2a/card/legacy-card.js";
import { resolveConfig } from "../../../../src/config/load.js";
import type { ConfigInput } from "../../../../src/config/schema.js";
import { DEFAULT_INPUT_MODES, DEFAULT_OUTPUT_MODES } from "../../../../src/common/media-types.js";

function config(input: ConfigInput = {}) {
  return resolveConfig(input, { file: "test.json", startDir: "/work" });
}

type WireCard = {
  supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[];
  capabilities: Record<string, unknown>;
  skills: Record<string, unknown>[];
} & Record<string, unknown>;

/** The JSON-RPC and HTTP+JSON interfaces at `version` on the default public URL, in that order. */
const httpInterfaces = (protocolVersion: string) => [
  { url: "http://localhost:3008/a2a/jsonrpc", protocolBinding: "JSONRPC", protocolVersion },
  { url: "http://localhost:3008/a2a/rest", protocolBinding: "HTTP+JSON", protocolVersion },
];

const wire = (input?: ConfigInput, version = "9.9.9") =>
  agentCardJson(buildAgentCard(config(input), { version })) as WireCard;

describe("agent card", () => {
  it("advertises JSON-RPC first and HTTP+JSON second on the default public URL", () => {
    expect(wire().supportedInterfaces).toEqual(httpInterfaces("1.0"));
  });

  it("lists the gRPC binding third, only when server.grpc.port is set", () => {
    const grpc = (g: Record<string, unknown>) =>
      wire({ server: { grpc: g } }).supportedInterfaces.filter((i) => i.protocolBinding === "GRPC");
    expect(grpc({})).toEqual([]);
    expect(wire({ server: { grpc: { port: 50051 } } }).supportedInterfaces[2]).toEqual({
      url: "127.0.0.1:50051",
      protocolBinding: "GRPC",
      protocolVersion: "1.0",
    });
    expect(grpc({ port: 50051, publicAddress: "agent.example.com:443" })[0]?.url).toBe(
      "agent.example.com:443",
    );
  });

  it("with v0.3 compatibility, lists gRPC at 1.0 only, and the v0.3 card does not offer it", async () => {
    const input: ConfigInput = { server: { compat: { v03: true }, grpc: { port: 50051 } } };
    expect(
      wire(input).supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion}`),
    ).toEqual(["JSONRPC 1.0", "HTTP+JSON 1.0", "GRPC 1.0", "JSONRPC 0.3", "HTTP+JSON 0.3"]);
    const legacy = await legacyAgentCardJson(buildAgentCard(config(input), { version: "1" }));
    expect(legacy.additionalInterfaces).toEqual([
      { url: "http://localhost:3008/a2a/rest", transport: "HTTP+JSON" },
    ]);
  });

  it.each([
    ["127.0.0.1", undefined, "127.0.0.1:50051"],
    ["::1", undefined, "[::1]:50051"],
    ["0.0.0.0", undefined, "localhost:50051"],
    ["::", undefined, "localhost:50051"],
    ["my-host", undefined, "my-host:50051"],
    ["0.0.0.0", "grpc.example.com:8443", "grpc.example.com:8443"],
  ])("advertises gRPC on %s (publicAddress %s) as %s", (host, publicAddress, expected) => {
    expect(grpcAddress({ host, publicAddress }, 50051)).toBe(expected);
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
    // ProtoJSON leaves out `required: false`, its default.
    const extensions = [
      { uri: EVENTS_EXTENSION_URI, description: expect.any(String) as string },
      {
        uri: CONTROL_EXTENSION_URI,
        description: expect.any(String) as string,
        params: { version: "1", controls: ["steer", "rewind", "fork"] },
      },
      { uri: GENERATIONS_EXTENSION_URI, description: expect.any(String) as string },
    ];
    expect(wire().capabilities).toEqual({
      streaming: true,
      pushNotifications: true,
      extensions,
      extendedAgentCard: false,
    });
    expect(
      wire({ agentCard: { capabilities: { pushNotifications: false } } }).capabilities,
    ).toEqual({ streaming: true, pushNotifications: false, extensions, extendedAgentCard: false });
  });

  it("lists the control extension only while one of its controls is on (server.control)", () => {
    const uris = (input: ConfigInput) =>
      (buildAgentCard(config(input), { version: "1" }).capabilities?.extensions ?? []).map(
        (e) => e.uri,
      );
    const generations = GENERATIONS_EXTENSION_URI;
    expect(uris({})).toEqual([EVENTS_EXTENSION_URI, CONTROL_EXTENSION_URI, generations]);
    expect(uris({ server: { control: { steer: false } } })).toEqual([
      EVENTS_EXTENSION_URI,
      CONTROL_EXTENSION_URI,
      generations,
    ]);
    const off = { steer: false, rewind: false, fork: false };
    expect(uris({ server: { control: off } })).toEqual([EVENTS_EXTENSION_URI, generations]);
    // A generation is an event number: without replay, no generations extension.
    expect(uris({ server: { control: off }, replay: { enabled: false } })).toEqual([
      EVENTS_EXTENSION_URI,
    ]);
  });

  it("declares the event extension as optional, without parameters", () => {
    const [extension] = buildAgentCard(config(), { version: "1" }).capabilities?.extensions ?? [];
    expect(extension).toEqual({
      uri: "https://github.com/claude-a2a/claude-a2a/extensions/events/v1",
      description: expect.stringContaining("metadata.kind") as string,
      required: false,
      params: undefined,
    });
  });

  it("with server.compat.v03, lists each binding again at 0.3, after the 1.0 ones", () => {
    expect(wire({ server: { compat: { v03: true } } }).supportedInterfaces).toEqual([
      ...httpInterfaces("1.0"),
      ...httpInterfaces("0.3"),
    ]);
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

  it("declares static tokens and OIDC as two Bearer schemes, either one enough", () => {
    const oidc = {
      issuer: "https://idp.example",
      audience: ["a2a", "agents"],
      jwksUrl: "https://idp.example/jwks",
      requiredScopes: ["a2a.call"],
    };
    const both = wire({
      server: { auth: { tokens: [{ name: "ci", sha256: "a".repeat(64) }], oidc } },
    });
    expect(both.securitySchemes).toEqual({
      bearer: {
        httpAuthSecurityScheme: {
          scheme: "Bearer",
          description: "A token from the server's operator: Authorization: Bearer <token>.",
        },
      },
      oidc: {
        httpAuthSecurityScheme: {
          scheme: "Bearer",
          bearerFormat: "JWT",
          description:
            'A JWT from the OpenID Connect provider "https://idp.example" for the audience ' +
            '"a2a" or "agents" granting the scopes a2a.call: Authorization: Bearer <token>.',
        },
      },
    });
    expect(both.securityRequirements).toEqual([
      { schemes: { bearer: {} } },
      { schemes: { oidc: {} } },
    ]);
    expect(wire({ server: { auth: { oidc } } }).securityRequirements).toEqual([
      { schemes: { oidc: {} } },
    ]);
    expect(wire().securitySchemes).toBeUndefined();
  });

  it("offers the extended card exactly when callers are identified", () => {
    const extended = (input: ConfigInput) => wire(input).capabilities.extendedAgentCard;
    const oidc = {
      issuer: "i",
      audience: "a",
      keys: [{ kty: "EC" as const, crv: "P-256", x: "x", y: "y" }],
    };
    expect(extended({})).toBe(false);
    expect(
      extended({ server: { auth: { tokens: [{ name: "ci", sha256: "a".repeat(64) }] } } }),
    ).toBe(true);
    expect(extended({ server: { auth: { oidc } } })).toBe(true);
    expect(extended({ server: { allowedLogins: ["ada@example.com"] } })).toBe(true);
    expect(extended({ server: { allowedLogins: [] } })).toBe(false);
  });

  it("round-trips through the SDK's parser", () => {
    const built = buildAgentCard(config(), { version: "1.2.3" });
    expect(AgentCard.fromJSON(agentCardJson(built))).toEqual(built);
  });

  it("lists the media types the server accepts and produces by default", () => {
    const card = wire();
    expect(card.defaultInputModes).toEqual(DEFAULT_INPUT_MODES);
    expect(card.defaultInputModes).toEqual(
      expect.arrayContaining(["text/plain", "application/json", "image/png", "text/markdown"]),
    );
    expect(card.defaultOutputModes).toEqual(DEFAULT_OUTPUT_MODES);
    expect(card.defaultOutputModes).toEqual(
      expect.arrayContaining(["text/plain", "text/markdown", "application/octet-stream"]),
    );
    expect(wire({ agentCard: { defaultInputModes: ["text/plain"] } }).defaultInputModes).toEqual([
      "text/plain",
    ]);
  });
});

describe("card document", () => {
  const built = new Date("2025-03-04T05:06:07.890Z");

  it("is the wire form, with a strong ETag of its bytes and the build time as HTTP-date", () => {
    const card = buildAgentCard(config(), { version: "1.0.0" });
    const doc = cardDocument(card, built);
    expect(JSON.parse(doc.body)).toEqual(agentCardJson(card));
    expect(doc.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(doc.lastModified).toBe("Tue, 04 Mar 2025 05:06:07 GMT");
  });

  it("changes its ETag when the card changes, and only then", () => {
    const a = cardDocument(buildAgentCard(config(), { version: "1.0.0" }), built);
    const same = cardDocument(buildAgentCard(config(), { version: "1.0.0" }), new Date());
    const other = cardDocument(buildAgentCard(config(), { version: "1.0.1" }), built);
    expect(same.etag).toBe(a.etag);
    expect(other.etag).not.toBe(a.etag);
  });
});

describe("v0.3 card (server.compat.v03)", () => {
  it("has v0.3's endpoint fields from the 0.3 interfaces, and keeps the v1.0 ones", async () => {
    const card = buildAgentCard(
      config({
        server: {
          compat: { v03: true },
          auth: { tokens: [{ name: "ci", sha256: "a".repeat(64) }] },
        },
      }),
      { version: "1.0.0" },
    );
    const legacy = await legacyAgentCardJson(card);
    expect(legacy).toMatchObject({
      name: "Claude Code",
      version: "1.0.0",
      url: "http://localhost:3008/a2a/jsonrpc",
      preferredTransport: "JSONRPC",
      protocolVersion: "0.3",
      additionalInterfaces: [{ url: "http://localhost:3008/a2a/rest", transport: "HTTP+JSON" }],
      capabilities: {
        streaming: true,
        pushNotifications: true,
        extensions: [
          { uri: EVENTS_EXTENSION_URI, required: false },
          { uri: CONTROL_EXTENSION_URI, required: false },
          { uri: GENERATIONS_EXTENSION_URI, required: false },
        ],
      },
      // v0.3's security shapes: a `type` discriminator, plain scope lists.
      securitySchemes: { bearer: { type: "http", scheme: "Bearer" } },
      security: [{ bearer: [] }],
      supportedInterfaces: agentCardJson(card).supportedInterfaces,
    });
    expect(JSON.stringify(legacy)).not.toContain("$case");
    // A v1.0 card's signature would not verify over the v0.3 shape: the legacy card has none.
    const signed = {
      ...card,
      signatures: [{ protected: "e30", signature: "c2ln", header: undefined }],
    };
    expect(agentCardJson(signed).signatures).toHaveLength(1);
    expect(await legacyAgentCardJson(signed)).not.toHaveProperty("signatures");
  });

  it("cannot be built from a card without a 0.3 interface", async () => {
    const card = buildAgentCard(config(), { version: "1.0.0" });
    await expect(legacyAgentCardJson(card)).rejects.toThrow(/at least one interface/);
  });
});
