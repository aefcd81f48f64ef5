import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/load.js";
import { conversationFolder, workspaceBoundary } from "../../../src/sandbox/workspace-boundary.js";
import { sandboxSettings } from "../../../src/sandbox/preset.js";
import { judgePath } from "../../../src/sandbox/file-guard.js";
import { callerInbox } from "../../../src/workspace/inbox.js";

const UID = process.getuid?.() ?? 0;
const boundaryOf = (isolation: "shared" | "worktree") => {
  const config = resolveConfig(
    { claude: { sandbox: "strict", isolation } },
    { file: "<test>", startDir: "/ws" },
  );
  const b = workspaceBoundary(config, sandboxSettings("strict", { serverFiles: [] }), {
    serverFiles: ["/ws/.claude/claude-a2a.db"],
    gitMetadata: ["/ws/.git"],
    env: { HOME: "/home/u", CLAUDE_CODE_TMPDIR: "/t", ANTHROPIC_API_KEY: "k" },
    strict: true,
  });
  if (b === undefined) throw new Error("no boundary");
  return b;
};

describe("a workspace's boundary, per process", () => {
  it("gives each process a temp dir the others' commands cannot read", () => {
    const b = boundaryOf("shared");
    expect(b.tmpRoot).toBe(`/t/claude-a2a-processes-${UID}`);
    const s = b.sandboxFor("/ws", `/t/claude-a2a-processes-${UID}/p1`);
    expect(s.filesystem?.denyRead).toContain(`/t/claude-a2a-processes-${UID}`);
    expect(s.filesystem?.allowRead).toEqual(
      expect.arrayContaining([`/t/claude-a2a-processes-${UID}/p1`, "/ws"]),
    );
    expect(b.guardFor("/ws", `/t/claude-a2a-processes-${UID}/p1`).runtimeFiles).toEqual([
      `/t/claude-a2a-processes-${UID}/p1`,
      "/home/u/.claude/plans",
    ]);
  });

  it("under worktree isolation, hides the other worktrees from a conversation's commands", () => {
    const b = boundaryOf("worktree");
    const tree = "/ws/.claude/worktrees/c1";
    const s = b.sandboxFor(tree, `/t/claude-a2a-processes-${UID}/p1`);
    expect(s.filesystem?.denyRead).toContain("/ws/.claude/worktrees");
    expect(s.filesystem?.allowRead).toContain(tree);
    expect(boundaryOf("shared").sandboxFor("/ws", "/t/p").filesystem?.denyRead).not.toContain(
      "/ws/.claude/worktrees",
    );
  });

  it("under worktree isolation, lets a conversation read its own repository and write none of it, from a subfolder too", () => {
    const b = boundaryOf("worktree");
    const sub = "/ws/.claude/worktrees/c1/pkg";
    const s = b.sandboxFor(sub, "/t/p");
    expect(s.filesystem?.allowRead).toEqual(
      expect.arrayContaining([sub, "/ws/.claude/worktrees/c1"]),
    );
    expect(s.filesystem?.denyWrite).toContain("/ws/.claude/worktrees/c1/.git");
    expect(b.guardFor(sub, "/t/p").protected).toEqual(
      expect.arrayContaining([
        { path: "/ws/.claude/worktrees/c1/.git", kind: "git-metadata", access: "write" },
      ]),
    );
    // The workspace itself (a process outside the worktrees folder) gets neither.
    expect(b.sandboxFor("/ws", "/t/p").filesystem?.denyWrite).not.toContain(
      "/ws/.claude/worktrees/c1/.git",
    );
  });

  it("under shared isolation, keeps each caller's inbox folder its own: a spare's commands read none", () => {
    const b = boundaryOf("shared");
    const mine = `/ws/${callerInbox("token:a")}`;
    const s = b.sandboxFor("/ws", "/t/p", "token:a");
    expect(s.filesystem?.denyRead).toContain("/ws/.claude/a2a-inbox");
    expect(s.filesystem?.allowRead).toContain(mine);
    const spare = b.sandboxFor("/ws", "/t/p", undefined);
    expect(spare.filesystem?.denyRead).toContain("/ws/.claude/a2a-inbox");
    expect(spare.filesystem?.allowRead?.some((p) => p.startsWith("/ws/.claude/a2a-inbox/"))).toBe(
      false,
    );
    const guard = b.guardFor("/ws", "/t/p", "token:a");
    expect(judgePath(`${mine}/t1/f.txt`, "file-read", guard)).toBeUndefined();
    const other = judgePath(`/ws/${callerInbox("token:b")}/t2/f.txt`, "file-read", guard);
    expect(other?.kind).toBe("other-caller");
    expect(judgePath("/ws/.claude/a2a-inbox", "file-read", guard)?.kind).toBe("other-caller");
    // Worktree isolation: the inbox is in the conversation's own worktree, nothing to split.
    expect(
      boundaryOf("worktree").sandboxFor("/ws/.claude/worktrees/c1", "/t/p", "token:a").filesystem
        ?.denyRead,
    ).not.toContain("/ws/.claude/worktrees/c1/.claude/a2a-inbox");
  });

  it.each([
    ["/w/.claude/worktrees", "/w/.claude/worktrees/c1", "/w/.claude/worktrees/c1"],
    ["/w/.claude/worktrees", "/w/.claude/worktrees/c1/a/b", "/w/.claude/worktrees/c1"],
    ["/w/.claude/worktrees", "/w/.claude/worktrees", undefined],
    ["/w/.claude/worktrees", "/w", undefined],
    ["/w/.claude/worktrees", "/w/.claude/worktrees-other/c1", undefined],
  ])("conversationFolder(%s, %s) is %s", (dir, cwd, folder) => {
    expect(conversationFolder(dir, cwd)).toBe(folder);
  });

  it("keeps the server's files and the runtime's state out of the file tools, and the git metadata unwritten", () => {
    const guard = boundaryOf("shared").guardFor("/ws", "/t/p");
    expect(guard.roots).toEqual(["/ws"]);
    expect(guard.protected).toEqual(
      expect.arrayContaining([
        { path: "/ws/.claude/claude-a2a.db", kind: "server-file", access: "all" },
        { path: "/home/u/.claude", kind: "runtime-state", access: "all" },
        { path: "/ws/.mcp.json", kind: "runtime-settings", access: "write" },
        { path: "/ws/.git", kind: "git-metadata", access: "write" },
      ]),
    );
    expect(boundaryOf("shared").protectedIn("/ws")).toEqual([
      "/ws/.claude/claude-a2a.db",
      "/home/u/.claude",
    ]);
  });
});
