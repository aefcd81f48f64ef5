import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/load.js";
import { checkIsolation } from "../../../src/doctor/isolation-check.js";
import { WORKTREE_SETUP } from "../../../src/workspace/worktrees/manager.js";
import { useTempDir } from "../../support/unit/temp-dir.js";

const dir = useTempDir("a2a-doctor-isolation-");

const config = (isolation: "shared" | "worktree") =>
  resolveConfig({ claude: { isolation } }, { file: "<test>", startDir: dir() });

describe("claude-a2a --check: isolation", () => {
  it("says nothing with shared", async () => {
    expect(await checkIsolation(config("shared"))).toBeUndefined();
  });

  it("fails a workspace that is not a git repository with the startup error", async () => {
    const r = await checkIsolation(config("worktree"));
    expect(r).toMatchObject({ name: "isolation", ok: false });
    expect(r?.detail).toBe(WORKTREE_SETUP.notARepository(dir()));
  });

  it("passes a repository with a commit, and changes nothing in it", async () => {
    const git = (...a: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...a], { cwd: dir() });
    git("init", "-q");
    await writeFile(join(dir(), "a"), "a");
    git("add", "a");
    git("commit", "-q", "-m", "a");
    const r = await checkIsolation(config("worktree"));
    expect(r?.ok).toBe(true);
    expect(execFileSync("git", ["status", "--porcelain"], { cwd: dir(), encoding: "utf8" })).toBe(
      "",
    );
  });
});
