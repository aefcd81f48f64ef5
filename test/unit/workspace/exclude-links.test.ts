import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { excludeServerFiles } from "../../../src/workspace/worktrees/exclude.js";
import { useTempDir } from "../../support/unit/temp-dir.js";

/** A git checkout `repo` and, beside it, a file `outside` a link could name. */
const dir = useTempDir("claude-a2a-exclude-", async (d) => {
  await mkdir(join(d, "repo"));
  execFileSync("git", ["init", "-q", join(d, "repo")]);
  await writeFile(join(d, "outside"), "NOT GIT'S\n");
});
const repo = () => join(dir(), "repo");

describe("excludeServerFiles: .git/info is writable from a sandboxed command", () => {
  it("writes the server's patterns to the real .git/info/exclude", async () => {
    expect(await excludeServerFiles(repo(), [".claude/claude-a2a.pids.json"])).toEqual([
      "/.claude/claude-a2a.pids.json",
    ]);
    expect(await readFile(join(repo(), ".git/info/exclude"), "utf8")).toContain(
      "/.claude/claude-a2a.pids.json",
    );
  });

  it.each([
    ["info/exclude", ".git/info/exclude"],
    ["info", ".git/info"],
  ])("neither reads nor writes through a link at %s", async (_what, at) => {
    await rm(join(repo(), at), { recursive: true, force: true });
    await symlink(at.endsWith("exclude") ? join(dir(), "outside") : dir(), join(repo(), at));
    await expect(
      excludeServerFiles(repo(), [".claude/claude-a2a.pids.json"]),
    ).rejects.toMatchObject({
      kind: "link",
    });
    expect(await readFile(join(dir(), "outside"), "utf8")).toBe("NOT GIT'S\n");
    expect(existsSync(join(dir(), "exclude"))).toBe(false);
  });
});
