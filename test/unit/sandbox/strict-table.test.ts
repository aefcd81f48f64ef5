/**
 * docs/sandbox.md's `"strict"` table is what the preset does (src/sandbox/preset.ts, the fixed
 * keys of src/config/sandbox-schema.ts, the server's files of src/sandbox/server-files.ts), as
 * test/unit/contract/readme.test.ts holds the protocol tables: a key, a secret path, a server file
 * or a refused setting added on one side fails here until the other says it too.
 */
import { CONFIG_SEEN_FILE, PIDS_FILE } from "../../../src/common/workspace-files.js";
import { basename } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/load.js";
import { CONFIG_FILE } from "../../../src/config/schema.js";
import { STRICT_FIXED } from "../../../src/config/sandbox-schema.js";
import { SECRET_PATHS, sandboxSettings, strictConflict } from "../../../src/sandbox/preset.js";
import { serverFiles } from "../../../src/sandbox/server-files.js";
import { HOME_READABLE } from "../../../src/sandbox/boundary.js";
import { SESSIONS_FILE } from "../../../src/store/session-map.js";
import { docPage } from "../../support/docs/pages.js";
import type { SandboxSettings } from "@anthropic-ai/claude-agent-sdk";

const PAGE = docPage("sandbox.md");

/** The `"strict"` table's rows: first cell → second cell. */
function strictTable(): Map<string, string> {
  const start = PAGE.indexOf('### `"strict"`');
  if (start < 0) throw new Error('docs/sandbox.md has no ### `"strict"`');
  const lines = PAGE.slice(start).split("\n");
  const first = lines.findIndex((l) => l.startsWith("|"));
  const rows = new Map<string, string>();
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith("|")) break;
    const [what = "", cell = ""] = line
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    rows.set(what, cell);
  }
  return rows;
}

const TABLE = strictTable();
const row = (what: string): string => {
  const cell = TABLE.get(what);
  if (cell === undefined) throw new Error(`the "strict" table has no row "${what}"`);
  return cell;
};
/** The backticked words of a cell. */
const codes = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "");

const strict = sandboxSettings("strict", { serverFiles: [] }) ?? {};

describe('docs/sandbox.md\'s "strict" table holds the preset', () => {
  it("has the rows it promises", () => {
    expect([...TABLE.keys()]).toEqual([
      "Sandbox",
      "Permission prompts",
      "Leaving the sandbox",
      "Writes",
      "Network",
      "Reads refused",
      "Writes refused",
      "Reads under HOME",
      "Not allowed with it",
    ]);
  });

  it("names every fixed key of the preset with its value", () => {
    const table = [...TABLE.values()].join("\n");
    for (const [key, value] of Object.entries(STRICT_FIXED)) {
      if (key === "enabled") {
        expect(value).toBe(true);
        expect(row("Sandbox")).toMatch(/^on\b/);
      } else if (value) expect(codes(table), key).toContain(key);
      else expect(codes(table), key).toContain(`${key}: false`);
    }
    expect(strict).toMatchObject(STRICT_FIXED);
  });

  it("says the network: the allowed domains, empty by default, and strictAllowlist", () => {
    expect(strict.network).toEqual({ allowedDomains: [], strictAllowlist: true });
    expect(codes(row("Network"))).toEqual(
      expect.arrayContaining(["claude.sandbox.network.allowedDomains", "strictAllowlist"]),
    );
    expect(row("Network")).toContain("(empty by default)");
  });

  it("lists exactly the secret paths the preset refuses to read", () => {
    const listed = codes(row("Reads refused")).filter((c) => c.startsWith("~"));
    expect(listed).toEqual([...SECRET_PATHS]);
    expect(strict.filesystem?.denyRead).toEqual([...SECRET_PATHS]);
  });

  it("lists what stays readable under HOME: the boundary's list and the operator's key", () => {
    const listed = codes(row("Reads under HOME"));
    expect(listed.filter((c) => c.startsWith("~"))).toEqual([...HOME_READABLE]);
    expect(listed).toContain("claude.sandbox.homeReadable");
  });

  it("names each of the server's own files, refused to read and to write", () => {
    const config = resolveConfig(
      {
        store: { type: "sqlite", path: ".claude/claude-a2a.db" },
        agentCard: { signing: { privateKeyFile: "/keys/card.pem", kid: "k1" } },
        server: {
          grpc: { port: 50051, tls: { keyFile: "/keys/grpc.key", certFile: "/keys/grpc.crt" } },
        },
      },
      { file: "<test>", startDir: "/ws" },
    );
    const files = serverFiles(config);
    // What the table calls each file the server keeps from sandboxed commands.
    const named: [string, (f: string) => boolean][] = [
      ["the server's config file", (f) => f.endsWith(CONFIG_FILE)],
      ["card-signing", (f) => f === "/keys/card.pem"],
      ["gRPC key files", (f) => f === "/keys/grpc.key"],
      ["SQLite database", (f) => /claude-a2a\.db(-wal|-shm)?$/.test(basename(f))],
      [
        "session map",
        (f) =>
          f.endsWith(SESSIONS_FILE) || /claude-a2a\.sessions\.db(-wal|-shm)?$/.test(basename(f)),
      ],
      ["pid file", (f) => f.endsWith(PIDS_FILE)],
      ["record of the config file", (f) => f.endsWith(CONFIG_SEEN_FILE)],
    ];
    for (const file of files) {
      expect(
        named.some(([, is]) => is(file)),
        `${file} is named in the table`,
      ).toBe(true);
    }
    for (const [words, is] of named) {
      expect(row("Reads refused"), words).toContain(words);
      expect(files.some(is), `${words} is a server file`).toBe(true);
    }
    expect(row("Writes refused")).toContain("the server's files above");
    const withFiles = sandboxSettings("strict", { serverFiles: files });
    expect(withFiles?.filesystem?.denyRead).toEqual([...SECRET_PATHS, ...files]);
    expect(withFiles?.filesystem?.denyWrite).toEqual(files);
  });

  it("refuses writes of the repository's git metadata, and says so", () => {
    expect(row("Writes refused")).toContain("the repository's git metadata");
    const git = ["/ws/.git"];
    const settings = sandboxSettings("strict", { serverFiles: ["/f"], gitMetadata: git });
    expect(settings?.filesystem?.denyWrite).toEqual(["/f", ...git]);
    // Readable: a sandboxed command may still look at the history.
    expect(settings?.filesystem?.denyRead).not.toContain("/ws/.git");
  });

  it('lists the settings "strict" refuses, and refuses each one it lists', () => {
    const refused: [string, SandboxSettings][] = [
      ["allowWrite", { filesystem: { allowWrite: ["/x"] } }],
      ["allowRead", { filesystem: { allowRead: ["/x"] } }],
      ["filesystem.disabled", { filesystem: { disabled: true } }],
      ["excludedCommands", { excludedCommands: ["git"] }],
      ["your own proxy ports", { network: { httpProxyPort: 8080 } }],
      ["your own proxy ports", { network: { socksProxyPort: 1080 } }],
      ["allowAllUnixSockets", { network: { allowAllUnixSockets: true } }],
    ];
    const cell = row("Not allowed with it");
    for (const [words, settings] of refused) {
      expect(cell, words).toContain(words);
      expect(strictConflict(settings), words).toBeDefined();
    }
    // And nothing else is listed there.
    expect(codes(cell).sort()).toEqual(
      [
        "allowAllUnixSockets",
        "allowRead",
        "allowWrite",
        "excludedCommands",
        "filesystem.disabled",
      ].sort(),
    );
  });
});
