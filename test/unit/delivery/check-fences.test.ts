import { describe, expect, it } from "vitest";
import { fenceArgs, fencePaths } from "../../../src/delivery/check-fences.js";

const dir = (path: string) => ({ path, kind: "dir" as const });
const file = (path: string) => ({ path, kind: "file" as const });

describe("a sandboxed check's fences (check-fences.ts)", () => {
  it("takes the boundary's lists: denied reads hidden, allowed reads shown, the conversation's .git read-only", () => {
    const paths = fencePaths(
      {
        denyRead: ["~", "/srv/cfg", "/w/.claude/worktrees", "**/*.pem", "/"],
        allowRead: ["~/.gitconfig", "/w/.claude/worktrees/c1", "relative/x"],
        denyWrite: ["/srv/cfg", "/w/.claude/worktrees/c1/.git", "/w/.git"],
      },
      "/w/.claude/worktrees/c1",
      "/home/u",
    );
    expect(paths).toEqual({
      // No glob nor relative path (the runtime's own forms), and never the root itself.
      hidden: ["/home/u", "/srv/cfg", "/w/.claude/worktrees"],
      readable: ["/home/u/.gitconfig", "/w/.claude/worktrees/c1"],
      // Only what lies in the writable worktree: the rest is read-only already.
      readOnly: ["/w/.claude/worktrees/c1/.git"],
    });
  });

  it("mounts the shallowest first, hidden over shown at one path, then the worktree, then its read-only parts", () => {
    const args = fenceArgs(
      {
        hidden: [dir("/w/.claude/worktrees"), dir("/home/u"), file("/w/config.json")],
        readable: [dir("/w/.claude/worktrees/c1"), file("/home/u/.gitconfig"), dir("/home/u")],
        readOnly: [dir("/w/.claude/worktrees/c1/.git")],
      },
      "/w/.claude/worktrees/c1",
    ).join(" ");
    expect(args).toBe(
      [
        "--ro-bind /home/u /home/u",
        "--tmpfs /home/u",
        "--ro-bind /dev/null /w/config.json",
        "--ro-bind /home/u/.gitconfig /home/u/.gitconfig",
        "--tmpfs /w/.claude/worktrees",
        "--ro-bind /w/.claude/worktrees/c1 /w/.claude/worktrees/c1",
        "--bind /w/.claude/worktrees/c1 /w/.claude/worktrees/c1",
        "--ro-bind /w/.claude/worktrees/c1/.git /w/.claude/worktrees/c1/.git",
      ].join(" "),
    );
    expect(fenceArgs(undefined, "/w")).toEqual(["--bind", "/w", "/w"]);
  });
});
