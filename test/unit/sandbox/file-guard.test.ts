import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  hostAllowed,
  judgeFetch,
  judgePath,
  targetsOf,
  wideningRequest,
  type GuardContext,
} from "../../../src/sandbox/file-guard.js";
import { judgeCall, realTarget } from "../../../src/sandbox/guard-hook.js";

const ctx: GuardContext = {
  roots: ["/ws", "/extra"],
  runtimeFiles: ["/tmp/claude-0", "/home/u/.claude/plans"],
  protected: [
    { path: "/ws/.claude/claude-a2a.config.json", kind: "server-file", access: "all" },
    { path: "/home/u/.claude", kind: "runtime-state", access: "all" },
    { path: "/ws/.claude/settings.json", kind: "runtime-settings", access: "write" },
    { path: "/ws/.git", kind: "git-metadata", access: "write" },
  ],
  allowedDomains: ["registry.npmjs.org", "*.example.com"],
};

describe("the file guard's decision", () => {
  it.each([
    ["/ws/src/a.ts", "file-read", undefined],
    ["/ws/src/a.ts", "file-write", undefined],
    ["/extra/notes.md", "file-write", undefined],
    ["/wsx/a.ts", "file-read", "outside-roots"],
    ["/home/u/.ssh/id_rsa", "file-read", "outside-roots"],
    ["/home/u/.bashrc", "file-write", "outside-roots"],
    ["/ws/.claude/claude-a2a.config.json", "file-read", "server-file"],
    ["/ws/.claude/claude-a2a.config.json", "file-write", "server-file"],
    ["/home/u/.claude/.credentials.json", "file-read", "runtime-state"],
    ["/home/u/.claude/plans/plan.md", "file-write", undefined],
    ["/tmp/claude-0/tasks/b1.output", "file-read", undefined],
    ["/ws/.claude/settings.json", "file-read", undefined],
    ["/ws/.claude/settings.json", "file-write", "runtime-settings"],
    ["/ws/.git/config", "file-read", undefined],
    ["/ws/.git/refs/heads/main", "file-write", "git-metadata"],
  ] as const)("%s for %s: %s", (path, operation, kind) => {
    expect(judgePath(path, operation, ctx)?.kind).toBe(kind);
  });

  it("says why and that no prompt can allow it", () => {
    const refusal = judgePath("/etc/passwd", "file-read", ctx);
    expect(refusal?.reason).toContain("outside this conversation's working directory (/ws)");
    expect(refusal?.reason).toContain("No permission prompt can allow it");
  });

  it.each([
    ["Read", { file_path: "a.ts" }, [["/ws/a.ts", "file-read"]]],
    ["Write", { file_path: "/etc/x" }, [["/etc/x", "file-write"]]],
    ["Edit", { file_path: "../up" }, [["/up", "file-write"]]],
    ["NotebookEdit", { notebook_path: "n.ipynb" }, [["/ws/n.ipynb", "file-write"]]],
    ["Grep", { pattern: "x" }, [["/ws", "file-read"]]],
    ["Grep", { pattern: "x", path: "/root" }, [["/root", "file-read"]]],
    [
      "Glob",
      { pattern: "/etc/*.conf" },
      [
        ["/ws", "file-read"],
        ["/etc", "file-read"],
      ],
    ],
    ["Bash", { command: "cat /etc/passwd" }, []],
  ] as const)("%s %j touches %j", (tool, input, expected) => {
    const got = targetsOf(tool, input, "/ws").map((t) =>
      t.type === "path" ? [t.path, t.operation] : [t.url],
    );
    expect(got).toEqual(expected);
  });

  it.each([
    ["registry.npmjs.org", true],
    ["REGISTRY.npmjs.org.", true],
    ["a.example.com", true],
    ["example.com", false],
    ["evil-example.com", false],
    ["127.0.0.1", false],
  ])("WebFetch host %s allowed: %s", (host, allowed) => {
    expect(hostAllowed(host, ctx.allowedDomains)).toBe(allowed);
  });

  it("refuses a WebFetch to a host not allowed, naming the host only", () => {
    const refusal = judgeFetch("http://127.0.0.1:8080/secret?token=x", ctx);
    expect(refusal).toMatchObject({ kind: "network", target: "127.0.0.1" });
    expect(refusal?.reason).not.toContain("token");
    expect(judgeFetch("https://registry.npmjs.org/x", ctx)).toBeUndefined();
  });
});

describe("the guard judges where a call really lands", () => {
  let root: string;
  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "guard-")));
    await mkdir(join(root, "ws"));
    await mkdir(join(root, "secret"));
    await writeFile(join(root, "secret", "key"), "k");
    await symlink(join(root, "secret"), join(root, "ws", "door"));
    await symlink(join(root, "secret", "key"), join(root, "ws", "key-link"));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("follows links, also on the way to a file not yet written", async () => {
    expect(await realTarget(join(root, "ws", "door", "new.txt"))).toBe(
      join(root, "secret", "new.txt"),
    );
    expect(await realTarget(join(root, "ws", "key-link"))).toBe(join(root, "secret", "key"));
    expect(await realTarget(join(root, "ws", "no", "such", "file"))).toBe(
      join(root, "ws", "no", "such", "file"),
    );
  });

  it("refuses a path inside the tree that a link takes outside", async () => {
    const guard: GuardContext = { ...ctx, roots: [join(root, "ws")], protected: [] };
    const cwd = join(root, "ws");
    expect(await judgeCall("Read", { file_path: "key-link" }, cwd, guard)).toMatchObject({
      kind: "outside-roots",
      target: join(root, "secret", "key"),
    });
    expect(await judgeCall("Write", { file_path: "door/x" }, cwd, guard)).toMatchObject({
      kind: "outside-roots",
    });
    expect(await judgeCall("Write", { file_path: "plain.txt" }, cwd, guard)).toBeUndefined();
  });
});

describe("a permission request that would widen the sandbox", () => {
  it.each([
    ["SandboxNetworkAccess", { host: "evil.example", port: 443 }, "network"],
    ["Bash", { command: "cat ~/.ssh/id_rsa", dangerouslyDisableSandbox: true }, "sandbox-exit"],
    ["Bash", { command: "npm test" }, undefined],
    ["Bash", { command: "npm test", dangerouslyDisableSandbox: false }, undefined],
    ["Write", { file_path: "/ws/a" }, undefined],
  ] as const)("%s %j: refused as %s", (tool, input, kind) => {
    expect(wideningRequest(tool, input)?.kind).toBe(kind);
  });
});
