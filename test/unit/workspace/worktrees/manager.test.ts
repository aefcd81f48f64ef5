import { access, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  WORKTREE_SETUP,
  WorktreeManager,
  WorktreeSetupError,
} from "../../../../src/workspace/worktrees/manager.js";
import { keptBranch, rewindWorktree } from "../../../../src/workspace/worktrees/rewind.js";
import { KEPT_DIR } from "../../../../src/workspace/worktrees/conversation-repo.js";
import { git, initRepo } from "./support/repo.js";

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

const logger = pino({ level: "silent" });

let root: string;
let repo: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "claude-a2a-worktrees-"));
  repo = await initRepo(root);
});

const opened: WorktreeManager[] = [];

afterEach(async () => {
  // Each manager's spare is built in the background: close them before their folders go.
  await Promise.all(opened.splice(0).map((m) => m.close()));
  await rm(root, { recursive: true, force: true });
});

const open = async (cwd = repo, publishes?: () => boolean) => {
  const m = await WorktreeManager.open({
    cwd,
    dir: ".claude/worktrees",
    serverPaths: [".claude/a2a-inbox/", ".claude/claude-a2a.db"],
    logger,
    ...(publishes !== undefined && { publishes }),
  });
  opened.push(m);
  return m;
};
const conv = { key: "token:ci|ctx-1", contextId: "ctx-1" };

describe("WorktreeManager", () => {
  it("refuses a directory that is not in a git repository, naming it", async () => {
    const plain = join(root, "plain");
    await mkdir(plain);
    const opening = open(plain);
    await expect(opening).rejects.toBeInstanceOf(WorktreeSetupError);
    await expect(opening).rejects.toThrow(WORKTREE_SETUP.notARepository(plain));
  });

  it("refuses a repository without a commit", async () => {
    const empty = join(root, "empty");
    await mkdir(empty);
    git(empty, "init", "-q");
    await expect(open(empty)).rejects.toThrow(WORKTREE_SETUP.noCommit(empty));
  });

  it("creates the worktree once, commits a task's change on its branch, leaves the checkout alone", async () => {
    const statusBefore = git(repo, "status", "--porcelain", "--untracked-files=all");
    const m = await open();
    const cwd = await m.prepare(conv);
    expect(cwd).toBe(join(repo, ".claude/worktrees", cwd.split("/").at(-1) ?? ""));
    expect(await m.prepare(conv)).toBe(cwd);
    await writeFile(join(cwd, "a.txt"), "two\n");
    await writeFile(join(cwd, "b.txt"), "new\n");
    // The server's inbox, written in the worktree, is never committed.
    await mkdir(join(cwd, ".claude/a2a-inbox/t1"), { recursive: true });
    await writeFile(join(cwd, ".claude/a2a-inbox/t1/x.bin"), "attachment");
    const commit = await m.finish(conv, "t1", "completed");
    expect(commit?.branch).toBe(m.branchOf(conv));
    expect(commit?.files).toEqual([
      { path: "a.txt", change: "modified" },
      { path: "b.txt", change: "added" },
    ]);
    expect(commit?.baseCommit).toBe(git(repo, "rev-parse", "main").trim());
    // The branch and its commit are in the conversation's own repository only.
    expect(git(cwd, "rev-parse", m.branchOf(conv)).trim()).toBe(commit?.commit);
    expect(git(cwd, "log", "-1", "--format=%s%n%an", m.branchOf(conv))).toBe(
      "claude-a2a: task t1\nclaude-a2a\n",
    );
    expect(git(repo, "branch", "--list", m.branchOf(conv)).trim()).toBe("");
    expect(() => git(repo, "cat-file", "-e", commit?.commit ?? "")).toThrow();
    expect(git(cwd, "rev-parse", "--git-common-dir").trim()).toBe(".git");
    expect(commit?.diff).toBe(git(cwd, "diff", commit?.baseCommit ?? "", commit?.commit ?? ""));
    expect(commit?.diff).toContain("-one\n+two\n");
    // Nothing changed: no commit.
    expect(await m.finish(conv, "t2", "completed")).toBeUndefined();
    // The checkout: same status, same file, same HEAD.
    expect(git(repo, "status", "--porcelain", "--untracked-files=all")).toBe(statusBefore);
    expect(await readFile(join(repo, "a.txt"), "utf8")).toBe("one\n");
    expect(await readFile(join(repo, ".git/info/exclude"), "utf8")).toContain(
      "/.claude/worktrees/\n/.claude/a2a-inbox/\n/.claude/claude-a2a.db\n",
    );
  });

  it("serializes parallel first tasks of several conversations on one repository", async () => {
    const m = await open();
    const convs = [1, 2, 3].map((i) => ({ key: `token:ci|c${i}`, contextId: `c${i}` }));
    const cwds = await Promise.all(convs.map((c) => m.prepare(c)));
    await Promise.all(cwds.map((cwd, i) => writeFile(join(cwd, "a.txt"), `from ${i}\n`)));
    const commits = await Promise.all(convs.map((c, i) => m.finish(c, `t${i}`, "completed")));
    for (const [i, c] of convs.entries()) {
      expect(git(cwds[i] ?? "", "show", `${m.branchOf(c)}:a.txt`)).toBe(`from ${i}\n`);
      expect(commits[i]?.files).toEqual([{ path: "a.txt", change: "modified" }]);
      // No conversation's repository holds another's commit.
      for (const [j, other] of cwds.entries()) {
        if (j === i) continue;
        expect(() => git(other, "cat-file", "-e", commits[i]?.commit ?? "")).toThrow();
      }
    }
  });

  it("publishes a conversation's branch to the workspace's repository when asked to, with what a rewind kept", async () => {
    const m = await open(repo, () => true);
    const cwd = await m.prepare(conv);
    await writeFile(join(cwd, "a.txt"), "two\n");
    const commit = await m.finish(conv, "t1", "completed");
    expect(git(repo, "rev-parse", m.branchOf(conv)).trim()).toBe(commit?.commit);
    expect(git(repo, "show", `${m.branchOf(conv)}:a.txt`)).toBe("two\n");
    // The workspace's checkout is untouched by it.
    expect(await readFile(join(repo, "a.txt"), "utf8")).toBe("one\n");
    // A rewind moves the branch back: published again, what it left is kept beside it.
    const kept = keptBranch(m.branchOf(conv), "t2");
    await rewindWorktree(cwd, commit?.baseCommit ?? "", kept, "t2");
    await m.publishIfAsked(conv);
    expect(git(repo, "rev-parse", m.branchOf(conv)).trim()).toBe(commit?.baseCommit);
    expect(git(repo, "rev-parse", kept).trim()).toBe(commit?.commit);
  });

  it("recreates a removed worktree from its branch; retention removes idle worktrees, keeps branches with commits", async () => {
    const m = await open();
    const idle = { key: "token:ci|idle", contextId: "idle" };
    const cwd = await m.prepare(conv);
    await writeFile(join(cwd, "c.txt"), "kept\n");
    await m.finish(conv, "t1", "completed");
    const idleCwd = await m.prepare(idle);
    await m.finish(idle, "t2", "completed");
    // One of Claude Code's own worktrees (`claude --worktree`) in the same folder: not ours.
    const foreign = join(repo, ".claude/worktrees/mine");
    git(repo, "worktree", "add", "-q", "-b", "mine", foreign);
    const old = new Date(Date.now() - 3 * 86_400_000);
    for (const dir of [cwd, idleCwd, foreign]) await utimes(dir, old, old);
    const removed = await m.prune(Date.now() - 86_400_000);
    expect(removed).toHaveLength(2);
    expect(git(repo, "worktree", "list", "--porcelain")).toContain(foreign);
    expect(await exists(cwd)).toBe(false);
    expect(await exists(idleCwd)).toBe(false);
    // The repository with a commit is kept; the one with none is gone.
    const kept = join(repo, ".claude/worktrees", KEPT_DIR);
    const name = (c: typeof conv) => m.branchOf(c).slice("claude-a2a/".length);
    expect(await exists(join(kept, `${name(conv)}.git`))).toBe(true);
    expect(await exists(join(kept, `${name(idle)}.git`))).toBe(false);
    // The conversation's next task finds its branch again.
    const again = await m.prepare(conv);
    expect(again).toBe(cwd);
    expect(await readFile(join(again, "c.txt"), "utf8")).toBe("kept\n");
  });

  it("runs a workspace in a subfolder of the repository in the same subfolder of the worktree", async () => {
    const sub = join(repo, "pkg");
    await mkdir(sub);
    await writeFile(join(sub, "p.txt"), "p\n");
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "pkg");
    const m = await open(sub);
    const cwd = await m.prepare(conv);
    expect(cwd).toMatch(/\/pkg\/?$/);
    expect(await readFile(join(cwd, "p.txt"), "utf8")).toBe("p\n");
    expect(await readFile(join(repo, ".git/info/exclude"), "utf8")).toContain(
      "/pkg/.claude/worktrees/",
    );
  });
});
