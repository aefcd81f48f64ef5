import { describe, expect, it } from "vitest";
import {
  boundaryRuntimeSettings,
  boundarySandbox,
  boundarySettingSources,
  deniedVariables,
  type BoundaryContext,
} from "../../../src/sandbox/boundary.js";

const ctx: BoundaryContext = {
  strict: true,
  home: "/home/u",
  configDir: "/home/u/.claude",
  roots: ["/home/u/proj", "/home/u/proj/.claude/worktrees", "/srv/data"],
  homeReadable: ["~/.npmrc"],
  envNames: ["PATH", "HOME", "LC_ALL", "ANTHROPIC_API_KEY", "GITHUB_TOKEN", "CLAUDE_CONFIG_DIR"],
};

describe("the boundary's additions to a sandbox", () => {
  it("unsets every variable but a shell's plain ones for commands", () => {
    expect(deniedVariables(ctx.envNames)).toEqual([
      "ANTHROPIC_API_KEY",
      "CLAUDE_CONFIG_DIR",
      "GITHUB_TOKEN",
    ]);
    const s = boundarySandbox({ enabled: true }, ctx);
    expect(s.credentials?.envVars).toEqual([
      { name: "ANTHROPIC_API_KEY", mode: "deny" },
      { name: "CLAUDE_CONFIG_DIR", mode: "deny" },
      { name: "GITHUB_TOKEN", mode: "deny" },
    ]);
  });

  it('"strict": HOME unreadable but the git identity, the operator\'s list and the roots in it; the config dir never', () => {
    const s = boundarySandbox({ enabled: true, filesystem: { denyRead: ["~/.ssh"] } }, ctx);
    expect(s.filesystem?.denyRead).toEqual(["~/.ssh", "~", "/home/u/.claude"]);
    expect(s.filesystem?.denyWrite).toEqual(["/home/u/.claude"]);
    expect(s.filesystem?.allowRead).toEqual([
      "~/.gitconfig",
      "~/.config/git",
      "~/.npmrc",
      "/home/u/proj",
      "/home/u/proj/.claude/worktrees",
    ]);
  });

  it("a roots list never re-opens the runtime's config dir", () => {
    const s = boundarySandbox(
      { enabled: true },
      { ...ctx, homeReadable: ["~/.claude"], roots: ["/home/u/.claude/x"] },
    );
    expect(s.filesystem?.allowRead).toEqual(["~/.gitconfig", "~/.config/git"]);
  });

  it("a custom sandbox keeps HOME readable (its own lists decide), the config dir denied", () => {
    const s = boundarySandbox({ enabled: true }, { ...ctx, strict: false });
    expect(s.filesystem?.denyRead).toEqual(["/home/u/.claude"]);
    expect(s.filesystem?.allowRead).toBeUndefined();
  });

  it("reads only the operator's user settings, never the project's or the local ones", () => {
    expect(boundarySettingSources(["user", "project", "local"])).toEqual(["user"]);
    expect(boundarySettingSources([])).toEqual([]);
  });

  it("has the runtime refuse file tools outside the working directories, the server's files counted outside", () => {
    expect(boundaryRuntimeSettings(["/ws/.claude/claude-a2a.db"])).toEqual({
      permissions: {
        blockReadsOutsideWorkingDirectories: true,
        blockWritesOutsideWorkingDirectories: true,
        workingDirectoriesExclude: ["/ws/.claude/claude-a2a.db"],
      },
    });
  });
});
