import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/load.js";
import {
  workspaceConfig,
  workspacePeerAgents,
  workspacesProblem,
} from "../../../src/config/workspaces.js";
import type { ConfigInput } from "../../../src/config/schema.js";
import { secretVariables } from "../../../src/config/security-schema.js";

const resolve = (input: ConfigInput) =>
  resolveConfig(input, {
    file: "<test>",
    startDir: "/srv",
    overrides: { port: 4000, cwd: "/srv" },
  });

describe("the peers config", () => {
  it("defaults: no peers, depth 3, a documented retry", () => {
    const config = resolve({});
    expect(config.peers).toEqual({
      agents: {},
      maxDepth: 3,
      requestTimeoutMs: 15_000,
      callTimeoutMs: 1_800_000,
      retries: 2,
      workspaceAuth: "none",
    });
  });

  it.each([
    [{ agents: { B: { url: "https://b.example/" } } }, "expected a peer name"],
    [
      { agents: { b: { url: "ftp://b.example/" } } },
      "expected an absolute http:// or https:// URL",
    ],
    [
      { agents: { b: { url: "https://b.example/", auth: { tokenEnv: "1X" } } } },
      "expected an environment variable name",
    ],
    [
      { agents: { b: { url: "https://b.example/", auth: "token" } } },
      'expected "none" or { "tokenEnv"',
    ],
    [{ maxDepth: 0 }, "expected an integer between 1 and 20"],
  ])("refuses %o", (peers, error) => {
    expect(() => resolve({ peers } as ConfigInput)).toThrow(error);
  });

  it("a workspace's peers: the server's, its own, and the siblings it lists on this server's loopback address", () => {
    const config = resolve({
      peers: { agents: { rev: { url: "https://rev.example/" } } },
      workspaces: {
        api: {
          cwd: "api",
          peers: { workspaces: ["web"], agents: { own: { url: "https://own.example/" } } },
        },
        web: { cwd: "web" },
      },
    });
    const [api, web] = config.workspaces;
    expect(Object.keys(workspaceConfig(config, api!, true).peers.agents)).toEqual([
      "rev",
      "own",
      "web",
    ]);
    expect(workspacePeerAgents(config, api!).web).toEqual({
      url: "http://127.0.0.1:4000/agents/web/.well-known/agent-card.json",
      auth: "none",
      allowPrivateNetwork: true,
      description: "The sibling workspace web of this server.",
    });
    expect(Object.keys(workspaceConfig(config, web!, false).peers.agents)).toEqual(["rev"]);
  });

  it.each([
    [["api"], 'Workspace "api": peers.workspaces lists itself'],
    [
      ["nope"],
      'Workspace "api": peers.workspaces names "nope", which is not a workspace of this server.',
    ],
    [["web"], undefined],
  ])("peers.workspaces %o", (siblings, problem) => {
    const config = resolve({
      workspaces: { api: { cwd: "api", peers: { workspaces: siblings } }, web: { cwd: "web" } },
    });
    const found = workspacesProblem(config.workspaces, config);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });

  it("lets a sibling's token go to server.publicUrl too, where its card lists its interfaces", () => {
    const config = resolve({
      peers: { workspaceAuth: { tokenEnv: "SIBLING_TOKEN" } },
      workspaces: { api: { cwd: "api", peers: { workspaces: ["web"] } }, web: { cwd: "web" } },
    });
    expect(workspacePeerAgents(config, config.workspaces[0]!).web?.auth).toEqual({
      tokenEnv: "SIBLING_TOKEN",
      origins: [config.server.publicUrl],
    });
  });

  it("keeps the peers' token variables out of Claude Code's environment", () => {
    const config = resolve({
      peers: {
        agents: { b: { url: "https://b.example/", auth: { tokenEnv: "B_TOKEN" } } },
        workspaceAuth: { tokenEnv: "SIBLING_TOKEN" },
      },
    });
    expect(secretVariables(config)).toEqual(["B_TOKEN", "SIBLING_TOKEN"]);
  });
});
