import { appendFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KEPT_DIR, keepRepository } from "../../../../src/workspace/worktrees/conversation-repo.js";
import {
  damagedRepositories,
  damageText,
  DamageRecord,
} from "../../../../src/workspace/worktrees/damage.js";
import { GitError } from "../../../../src/workspace/worktrees/git.js";
import { WorktreeManager } from "../../../../src/workspace/worktrees/manager.js";
import { pino } from "pino";
import { git, initRepo } from "./support/repo.js";

let root: string;
let repo: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "claude-a2a-damage-"));
  repo = await initRepo(root);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const garble = (gitDir: string) => appendFile(join(gitDir, "packed-refs"), "no ref at all\n");

describe("damaged repositories", () => {
  it("records git's failures, keeps when they began, and clears them on a success", () => {
    let now = new Date("2026-12-07T06:00:00Z");
    const record = new DamageRecord(() => now);
    const err = new GitError(["commit"], 128, "fatal: unexpected line in .git/packed-refs: x\n");
    record.record("c1", err);
    now = new Date("2026-12-07T07:00:00Z");
    record.record("c1", err);
    // Not git's: not damage (a missing folder, a bug) and not shown as such.
    record.record("c2", new Error("ENOENT"));
    expect(record.list()).toEqual([
      {
        repository: "c1",
        error: "fatal: unexpected line in .git/packed-refs: x",
        since: "2026-12-07T06:00:00.000Z",
      },
    ]);
    record.clear("c1");
    expect(record.list()).toEqual([]);
    expect(damageText(new Error("a\nb"))).toBe("a");
  });

  it("--check names the workspace's and each conversation's that git cannot read, and no other", async () => {
    const m = await WorktreeManager.open({
      cwd: repo,
      dir: ".claude/worktrees",
      serverPaths: [],
      logger: pino({ level: "silent" }),
      spare: false,
    });
    const conv = (id: string) => ({ key: `token:ci|${id}`, contextId: id });
    const ok = await m.prepare(conv("ok"));
    const bad = await m.prepare(conv("bad"));
    const kept = await m.prepare(conv("kept"));
    const name = (id: string) => m.branchOf(conv(id)).slice("claude-a2a/".length);
    await keepRepository(kept, join(m.dir, KEPT_DIR, `${name("kept")}.git`));
    await rm(kept, { recursive: true });
    expect(await damagedRepositories(repo, m.dir)).toEqual([]);
    await garble(join(bad, ".git"));
    await garble(join(m.dir, KEPT_DIR, `${name("kept")}.git`));
    await garble(join(repo, ".git"));
    const found = await damagedRepositories(repo, m.dir);
    expect(found.map((d) => d.repository).sort()).toEqual(
      ["workspace", name("bad"), name("kept")].sort(),
    );
    for (const d of found) expect(d.error).toContain("packed-refs");
    // The conversation next to them works on.
    expect(git(ok, "status", "--porcelain")).toBe("");
    await m.close();
  });
});
