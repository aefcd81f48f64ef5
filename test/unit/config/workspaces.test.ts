import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, resolveConfig } from "../../../src/config/load.js";
import type { Config, ConfigInput } from "../../../src/config/schema.js";
import {
  parseWorkspaceFlag,
  resolveWorkspaces,
  workspaceAllows,
  workspaceConfig,
  workspacesProblem,
  writtenKeys,
  type WorkspaceSpec,
} from "../../../src/config/workspaces.js";
import { useTempDir } from "../../support/unit/temp-dir.js";

const FILE = "/start/.claude/claude-a2a.config.json";
const resolved = (input: ConfigInput, flags?: string[]): Config =>
  resolveConfig(input, {
    file: FILE,
    startDir: "/start",
    overrides: { ...(flags && { workspaces: flags }) },
  });

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message;
  }
  throw new Error("expected a ConfigError");
}

const spec = (name: string, cwd: string, more: Partial<WorkspaceSpec> = {}): WorkspaceSpec => ({
  name,
  cwd,
  agentCard: {},
  claude: {},
  ...more,
});

describe("--workspace name=dir", () => {
  it.each([
    ["api=../api", { name: "api", dir: "../api" }],
    ["web-2=/srv/web", { name: "web-2", dir: "/srv/web" }],
    ["a= dir with = sign ", { name: "a", dir: "dir with = sign" }],
  ])("%j", (flag, parsed) => {
    expect(parseWorkspaceFlag(flag)).toEqual(parsed);
  });

  it.each([
    ["api", 'Invalid option --workspace: expected <name>=<directory>, got "api"'],
    ["api=", 'Invalid option --workspace: expected <name>=<directory>, got "api="'],
    [
      "Api=x",
      'Invalid option --workspace: expected a workspace name: lowercase letters, digits and inner hyphens, at most 63 characters, got "Api"',
    ],
    [
      "-x=x",
      'Invalid option --workspace: expected a workspace name: lowercase letters, digits and inner hyphens, at most 63 characters, got "-x"',
    ],
  ])("%j is refused", (flag, message) => {
    expect(errorOf(() => parseWorkspaceFlag(flag))).toBe(message);
  });
});

describe("resolveWorkspaces (pure)", () => {
  it("keeps only the keys the file wrote, in the file's order, then the flags'", () => {
    const config = resolved(
      {
        workspaces: {
          web: { cwd: "web", agentCard: { name: "Web" }, claude: { model: "m1" } },
          api: { cwd: "/abs/api", sessions: { maxLive: 2 }, callers: { tokens: [] } },
        },
      },
      ["docs=../docs", "api=other"],
    );
    expect(config.workspaces).toEqual([
      {
        name: "web",
        cwd: "/start/web",
        agentCard: { name: "Web" },
        claude: { model: "m1" },
        maxLive: undefined,
        callers: undefined,
      },
      // A flag naming a workspace of the file gives it another directory, nothing else.
      {
        name: "api",
        cwd: "/start/other",
        agentCard: {},
        claude: {},
        maxLive: 2,
        callers: { tokens: [] },
      },
      { name: "docs", cwd: "/docs", agentCard: {}, claude: {} },
    ]);
  });

  it("without workspaces there are none", () => {
    expect(resolved({}).workspaces).toEqual([]);
  });

  it("refuses a name given twice by flags", () => {
    expect(errorOf(() => resolveWorkspaces(undefined, undefined, ["a=x", "a=y"], "/"))).toBe(
      'Invalid option --workspace: workspace "a" is given twice',
    );
  });

  it("refuses an invalid name and a missing cwd in the file, naming the key", () => {
    const message = errorOf(() =>
      resolved({ workspaces: { "Bad Name": { cwd: "x" }, ok: {} } } as unknown as ConfigInput),
    );
    expect(message).toContain("workspaces.Bad Name");
    expect(message).toContain("lowercase letters, digits and inner hyphens");
    expect(message).toContain("workspaces.ok.cwd");
  });

  it("writtenKeys picks what the raw object has", () => {
    expect(writtenKeys({ a: 1, b: 2, c: 3 }, { a: 0, c: 0, x: 0 })).toEqual({ a: 1, c: 3 });
    expect(writtenKeys(undefined, { a: 1 })).toEqual({});
  });
});

describe("workspacesProblem (pure)", () => {
  const base = resolved({ server: { auth: { tokens: [{ name: "ci", env: "CI_TOKEN" }] } } });
  it.each([
    [[spec("a", "/x"), spec("b", "/y")], undefined],
    [
      [spec("a", "/x"), spec("b", "/x")],
      'Workspaces "a" and "b" are the same directory (/x): give each directory one name.',
    ],
    [
      [spec("a", "/x", { callers: { tokens: ["ci", "ops"] } })],
      'Workspace "a": callers.tokens names "ops", which is not a token of server.auth.tokens.',
    ],
  ])("%j", (specs, problem) => {
    expect(workspacesProblem(specs, base)).toBe(problem);
  });

  it("compares the real directories when given", () => {
    const specs = [spec("a", "/x"), spec("b", "/link-to-x")];
    expect(workspacesProblem(specs, base, ["/x", "/x"])).toContain('"a" and "b"');
  });

  it("refuses one absolute SQLite file for several workspaces", () => {
    const sqlite = resolved({ store: { type: "sqlite", path: "/var/a2a.db" } });
    const two = [spec("a", "/x"), spec("b", "/y")];
    expect(workspacesProblem(two, sqlite)).toBe(
      'Workspaces "a" and "b" would share the SQLite file /var/a2a.db: with several workspaces store.path must be relative (each workspace keeps its own file in its directory).',
    );
    expect(workspacesProblem(two.slice(0, 1), sqlite)).toBeUndefined();
  });
});

describe("workspaceConfig (pure)", () => {
  const base = resolved({
    server: { port: 4000, grpc: { port: 50051 } },
    agentCard: { name: "Acme", description: "Ours." },
    claude: { model: "m0", maxTurns: 5 },
    sessions: { maxLive: 4 },
  });

  it("serves the workspace under its prefix, with its overrides and its directory", () => {
    const c = workspaceConfig(
      base,
      spec("api", "/srv/api", {
        agentCard: { description: "The API." },
        claude: { model: "m1" },
        maxLive: 2,
      }),
      true,
    );
    expect(c.server.publicUrl).toBe("http://localhost:4000/agents/api");
    expect(c.server.grpc.port).toBe(50051);
    expect(c.agentCard).toMatchObject({ name: "Acme (api)", description: "The API." });
    expect(c.claude).toMatchObject({ cwd: "/srv/api", model: "m1", maxTurns: 5 });
    expect(c.sessions.maxLive).toBe(2);
    expect(c.workspaces).toEqual([]);
  });

  it("names its card as told, caps at the server's maxLive, and has no gRPC unless first", () => {
    const c = workspaceConfig(
      base,
      spec("web", "/srv/web", { agentCard: { name: "Web" }, maxLive: 9 }),
      false,
    );
    expect(c.agentCard.name).toBe("Web");
    expect(c.sessions.maxLive).toBe(4);
    expect(c.server.grpc.port).toBeUndefined();
    expect(c.agentCard.description).toBe("Ours.");
  });
});

describe("workspaceAllows (pure)", () => {
  const callers = { tokens: ["ci"], logins: ["ada@example.com"], subjects: ["svc"] };
  it.each([
    [undefined, { kind: "anonymous" } as const, true],
    [undefined, { kind: "token", name: "ops" } as const, true],
    [callers, { kind: "anonymous" } as const, false],
    [callers, { kind: "token", name: "ci" } as const, true],
    [callers, { kind: "token", name: "ops" } as const, false],
    [callers, { kind: "login", login: "ada@example.com" } as const, true],
    [callers, { kind: "login", login: "bob@example.com" } as const, false],
    [callers, { kind: "oidc", subject: "svc" } as const, true],
    [callers, { kind: "oidc", subject: "ci" } as const, false],
    [{ tokens: ["ci"] }, { kind: "login", login: "ci" } as const, false],
  ])("%j %j → %s", (c, caller, allowed) => {
    expect(workspaceAllows(c, caller)).toBe(allowed);
  });
});

describe("loadConfig with workspaces", () => {
  const dir = useTempDir("a2a-ws-", async (d) => {
    await mkdir(join(d, "api"));
    await mkdir(join(d, "web"));
  });
  const load = (flags: string[]) => loadConfig({ cwd: dir(), overrides: { workspaces: flags } });
  const failure = (flags: string[]) =>
    load(flags).then(
      () => "loaded",
      (err: unknown) => (err instanceof ConfigError ? err.message : String(err)),
    );

  it("loads the workspaces of the flags, resolved against the start directory", async () => {
    const { config } = await load(["api=api", "web=./web"]);
    expect(config.workspaces.map((w) => [w.name, w.cwd])).toEqual([
      ["api", join(dir(), "api")],
      ["web", join(dir(), "web")],
    ]);
  });

  it("stops at a missing directory, a file, or two names for one directory, naming it", async () => {
    await writeFile(join(dir(), "file"), "x");
    await symlink(join(dir(), "api"), join(dir(), "link"));
    expect(await failure(["api=api", "gone=nope"])).toBe(
      `Workspace "gone": no such directory: ${join(dir(), "nope")}`,
    );
    expect(await failure(["f=file"])).toBe(
      `Workspace "f": no such directory: ${join(dir(), "file")}`,
    );
    expect(await failure(["api=api", "alias=link"])).toBe(
      `Workspaces "api" and "alias" are the same directory (${join(dir(), "api")}): give each directory one name.`,
    );
  });

  it("reads the workspaces of the config file", async () => {
    await mkdir(join(dir(), ".claude"));
    await writeFile(
      join(dir(), ".claude", "claude-a2a.config.json"),
      JSON.stringify({ workspaces: { api: { cwd: "api", agentCard: { name: "API" } } } }),
    );
    const { config } = await load([]);
    expect(config.workspaces).toEqual([
      expect.objectContaining({ name: "api", cwd: join(dir(), "api"), agentCard: { name: "API" } }),
    ]);
  });
});
