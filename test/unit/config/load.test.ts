import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ConfigError,
  loadConfig,
  parseConfigText,
  resolveConfig,
} from "../../../src/config/load.js";
import { useTempDir } from "../../support/unit/temp-dir.js";

const FILE = "/work/.claude/claude-a2a.config.json";

function errorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("resolveConfig (pure)", () => {
  it("names the file, each key path and what is expected, in one message", () => {
    const err = errorOf(() =>
      resolveConfig(
        {
          server: { port: "abc", publicUrl: "ftp://x" },
          agentCard: { nmae: "x", skills: [{ name: "s", description: "d" }] },
          claude: { permissionMode: "yolo" },
        },
        { file: FILE, startDir: "/work" },
      ),
    );
    expect(err.file).toBe(FILE);
    expect(err.message).toBe(
      [
        `Invalid config file ${FILE}:`,
        '  - server.port: expected an integer between 1 and 65535, got "abc"',
        '  - server.publicUrl: expected an absolute http:// or https:// URL, got "ftp://x"',
        "  - agentCard.skills[0].id: required key is missing (expected a string)",
        '  - agentCard.nmae: unknown key, did you mean "name"?',
        '  - claude.permissionMode: expected one of "default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto", got "yolo"',
      ].join("\n"),
    );
  });

  it("lists the allowed keys when an unknown key looks like none of them", () => {
    const err = errorOf(() =>
      resolveConfig({ sessions: { zzz: 1 } }, { file: FILE, startDir: "/" }),
    );
    expect(err.message).toContain(
      'sessions.zzz: unknown key, expected one of "idleTimeoutMs", "maxLive"',
    );
  });

  it("says when the document is not an object", () => {
    const err = errorOf(() => resolveConfig([], { file: FILE, startDir: "/" }));
    expect(err.message).toBe(
      `Invalid config file ${FILE}:\n  - (top level): expected an object, got an array`,
    );
  });

  it("defaults publicUrl to localhost on the effective port, CLI overrides winning", () => {
    const c = resolveConfig(
      { server: { port: 4000, host: "0.0.0.0" } },
      { file: FILE, startDir: "/work", overrides: { port: "5000", host: "127.0.0.2" } },
    );
    expect(c.server).toMatchObject({
      port: 5000,
      host: "127.0.0.2",
      publicUrl: "http://localhost:5000",
    });
    expect(resolveConfig({}, { file: FILE, startDir: "/work" }).server.publicUrl).toBe(
      "http://localhost:3008",
    );
  });

  it("keeps an explicit publicUrl, without its trailing slash, whatever the port", () => {
    const c = resolveConfig(
      { server: { publicUrl: "https://m.tailnet.ts.net/" } },
      { file: FILE, startDir: "/work", overrides: { port: 9000 } },
    );
    expect(c.server.publicUrl).toBe("https://m.tailnet.ts.net");
  });

  it("resolves claude.cwd against the start directory; --cwd wins over the file", () => {
    const opts = { file: FILE, startDir: "/srv/start" };
    expect(resolveConfig({}, opts).claude.cwd).toBe("/srv/start");
    expect(resolveConfig({ claude: { cwd: "ws" } }, opts).claude.cwd).toBe("/srv/start/ws");
    expect(resolveConfig({ claude: { cwd: "/abs" } }, opts).claude.cwd).toBe("/abs");
    expect(
      resolveConfig({ claude: { cwd: "ws" } }, { ...opts, overrides: { cwd: "../other" } }).claude
        .cwd,
    ).toBe("/srv/other");
  });

  it("drops the editor-only $schema key", () => {
    const c = resolveConfig({ $schema: "../config.schema.json" }, { file: FILE, startDir: "/" });
    expect(c).not.toHaveProperty("$schema");
  });

  it("rejects a bad --port or --host naming the flag", () => {
    for (const port of ["abc", "0", "70000", "12ab", 1.5]) {
      const err = errorOf(() =>
        resolveConfig({}, { file: FILE, startDir: "/", overrides: { port } }),
      );
      expect(err.message).toBe(
        `Invalid option --port: expected an integer between 1 and 65535, got ${JSON.stringify(port)}`,
      );
    }
    const err = errorOf(() =>
      resolveConfig({}, { file: FILE, startDir: "/", overrides: { host: " " } }),
    );
    expect(err.message).toContain("--host");
  });
});

describe("parseConfigText (pure)", () => {
  it("reports the file, line and column of a syntax error", () => {
    const err = errorOf(() => parseConfigText('{\n  "a": 1\n  "b": 2\n}', FILE));
    expect(err.message).toMatch(
      new RegExp(`^Invalid JSON in ${FILE} at line 3, column 3: Expected ',' or '}'`),
    );
    expect(err.file).toBe(FILE);
  });

  it("locates a truncated file at its end", () => {
    const err = errorOf(() => parseConfigText('{\n  "a":', FILE));
    expect(err.message).toBe(
      `Invalid JSON in ${FILE} at line 2, column 7: Unexpected end of input`,
    );
  });

  it("accepts a UTF-8 byte order mark", () => {
    expect(parseConfigText('\uFEFF{"server":{}}', FILE)).toEqual({ server: {} });
  });
});

describe("loadConfig (files)", () => {
  const dir = useTempDir("claude-a2a-config-");

  async function writeConfig(base: string, content: string): Promise<string> {
    await mkdir(join(base, ".claude"), { recursive: true });
    const file = join(base, ".claude", "claude-a2a.config.json");
    await writeFile(file, content);
    return file;
  }

  it("uses every default when the default file does not exist", async () => {
    const { config, file } = await loadConfig({ cwd: dir() });
    expect(file).toBeNull();
    expect(config.server.port).toBe(3008);
    expect(config.claude.cwd).toBe(dir());
  });

  it("reads <cwd>/.claude/claude-a2a.config.json", async () => {
    const path = await writeConfig(dir(), JSON.stringify({ server: { port: 4321 } }));
    const { config, file } = await loadConfig({ cwd: dir() });
    expect(file).toBe(path);
    expect(config.server.publicUrl).toBe("http://localhost:4321");
  });

  it("looks the config up in --cwd, like cd", async () => {
    const ws = join(dir(), "ws");
    await writeConfig(ws, JSON.stringify({ agentCard: { name: "In ws" } }));
    const { config } = await loadConfig({ cwd: dir(), overrides: { cwd: "ws" } });
    expect(config.agentCard.name).toBe("In ws");
    expect(config.claude.cwd).toBe(ws);
  });

  it("fails when an explicit --config file is missing", async () => {
    const missing = join(dir(), "nope.json");
    const err: unknown = await loadConfig({ cwd: dir(), configPath: "nope.json" }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toBe(`Config file not found: ${missing}`);
    expect((err as ConfigError).file).toBe(missing);
  });

  it("reads an explicit --config file relative to the start directory", async () => {
    await writeFile(join(dir(), "custom.json"), JSON.stringify({ server: { host: "::1" } }));
    const { config } = await loadConfig({ cwd: dir(), configPath: "custom.json" });
    expect(config.server.host).toBe("::1");
  });

  it("names the file in a JSON syntax error", async () => {
    const path = await writeConfig(dir(), '{ "server": { "port": 3008, } }');
    await expect(loadConfig({ cwd: dir() })).rejects.toThrow(`Invalid JSON in ${path} at line 1`);
  });

  it("names the file in a schema error", async () => {
    const path = await writeConfig(dir(), JSON.stringify({ server: { port: "abc" } }));
    await expect(loadConfig({ cwd: dir() })).rejects.toThrow(
      `Invalid config file ${path}:\n  - server.port: expected an integer between 1 and 65535, got "abc"`,
    );
  });

  it("rejects a claude.cwd that is not a directory", async () => {
    const path = await writeConfig(dir(), JSON.stringify({ claude: { cwd: "missing" } }));
    await expect(loadConfig({ cwd: dir() })).rejects.toThrow(
      `Invalid config file ${path}:\n  - claude.cwd: expected an existing directory, got ${join(dir(), "missing")}`,
    );
    await expect(loadConfig({ cwd: dir(), overrides: { cwd: "missing" } })).rejects.toThrow(
      `Invalid option --cwd: no such directory: ${join(dir(), "missing")}`,
    );
  });
});
