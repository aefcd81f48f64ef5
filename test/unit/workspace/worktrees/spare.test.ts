import {
  access,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  realpath,
  rm,
  stat,
  utimes,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WorktreeManager } from "../../../../src/workspace/worktrees/manager.js";
import { worktreeName } from "../../../../src/workspace/worktrees/names.js";
import { SpareWorktree, spareName } from "../../../../src/workspace/worktrees/spare.js";
import { initRepository } from "../../../../src/workspace/worktrees/conversation-repo.js";
import { git, initRepo } from "./support/repo.js";

const logger = pino({ level: "silent" });
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

let root: string;
let repo: string;
const opened: WorktreeManager[] = [];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "claude-a2a-spare-"));
  repo = await initRepo(root);
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((m) => m.close()));
  await rm(root, { recursive: true, force: true });
});

const open = async () => {
  const m = await WorktreeManager.open({
    cwd: repo,
    dir: ".claude/worktrees",
    serverPaths: [],
    logger,
  });
  opened.push(m);
  return m;
};
const conv = (id: string) => ({ key: `token:ci|${id}`, contextId: id });
/** A taken spare keeps its folder's name (a spare process may run there): the spare's. */
const SPARE_ID = /^\.claude-a2a-spare-[0-9a-f]{10}\d+$/;
const addedAs = (cwd: string) => basename(cwd);
const status = () => git(repo, "status", "--porcelain", "--untracked-files=all");

describe("the spare worktree", () => {
  it("is taken by a first task while it is at HEAD, and a new one is made", async () => {
    const before = status();
    const m = await open();
    await m.spare.settled();
    expect(m.spare.ready).toBe(true);
    // A repository of its own, no worktree of the workspace's.
    expect(git(m.spare.path, "rev-parse", "--git-common-dir").trim()).toBe(".git");
    expect(git(repo, "worktree", "list")).not.toContain(`${spareName(repo)}`);
    const c = conv("ctx-1");
    const cwd = await m.prepare(c);
    expect(addedAs(cwd)).toMatch(SPARE_ID);
    // The spare never moved (a spare process may run in it): the conversation's name links it.
    expect(await realpath(join(m.dir, worktreeName(c.key, c.contextId)))).toBe(await realpath(cwd));
    expect(basename(cwd)).toMatch(/^\.claude-a2a-spare-/);
    expect(git(cwd, "symbolic-ref", "HEAD").trim()).toBe(`refs/heads/${m.branchOf(c)}`);
    expect(git(cwd, "rev-parse", "HEAD")).toBe(git(repo, "rev-parse", "main"));
    expect(git(cwd, "status", "--porcelain")).toBe("");
    // It works like any other: a task's change is committed on the conversation's branch.
    await writeFile(join(cwd, "a.txt"), "two\n");
    const commit = await m.finish(c, "t1", "completed");
    expect(commit?.files).toEqual([{ path: "a.txt", change: "modified" }]);
    expect(git(cwd, "show", `${m.branchOf(c)}:a.txt`)).toBe("two\n");
    await m.spare.settled();
    expect(m.spare.ready).toBe(true);
    // Building the next one cleared no taken spare.
    expect(git(cwd, "rev-parse", m.branchOf(c)).trim()).toBe(commit?.commit);
    // The next conversation takes the new spare, and sees none of the first one's change.
    const d = await m.prepare(conv("ctx-2"));
    expect(addedAs(d)).toMatch(SPARE_ID);
    expect(await readFile(join(d, "a.txt"), "utf8")).toBe("one\n");
    expect(status()).toBe(before);
    expect(await readFile(join(repo, "a.txt"), "utf8")).toBe("one\n");
  });

  it("starts every worktree, spare or not, from the HEAD commit pinned at startup: a branch moved since (update-ref) is not followed", async () => {
    const pinned = git(repo, "rev-parse", "HEAD").trim();
    const m = await open();
    await m.spare.settled();
    // The attack: the workspace's branch moved to a commit adding runtime settings.
    await mkdir(join(repo, ".claude"), { recursive: true });
    await writeFile(join(repo, ".claude/settings.json"), '{"hooks":{}}\n');
    git(repo, "add", "-f", ".claude/settings.json");
    const planted = git(
      repo,
      "commit-tree",
      git(repo, "write-tree").trim(),
      "-p",
      pinned,
      "-m",
      "x",
    );
    git(repo, "update-ref", "refs/heads/main", planted.trim());
    git(repo, "reset", "-q", "--mixed");
    // The first conversation takes the spare; the second gets `git worktree add` (none ready).
    const first = await m.prepare(conv("ctx-1"));
    expect(addedAs(first)).toMatch(SPARE_ID);
    const second = await m.prepare(conv("ctx-2"));
    expect(addedAs(second)).toBe(worktreeName("token:ci|ctx-2", "ctx-2"));
    for (const cwd of [first, second]) {
      expect(git(cwd, "rev-parse", "HEAD").trim()).toBe(pinned);
      expect(await exists(join(cwd, ".claude/settings.json"))).toBe(false);
    }
    // The next spare is made at the pinned commit too.
    await m.spare.settled();
    expect(m.spare.ready).toBe(true);
    expect(git(m.spare.path, "rev-parse", "HEAD").trim()).toBe(pinned);
    expect(m.base).toBe(pinned);
  });

  it("is waited for while it is being made, then taken", async () => {
    const head = git(repo, "rev-parse", "HEAD").trim();
    const spare = new SpareWorktree(
      { common: join(repo, ".git") },
      join(repo, ".claude/worktrees", spareName(repo)),
      head,
      logger,
    );
    spare.replenish();
    expect(spare.ready).toBe(false);
    const target = join(repo, ".claude/worktrees/early");
    expect(await spare.claim(target, "claude-a2a/early")).toBe(true);
    expect(git(target, "symbolic-ref", "HEAD").trim()).toBe("refs/heads/claude-a2a/early");
    expect(addedAs(await realpath(target))).toMatch(SPARE_ID);
    expect(spare.ready).toBe(false);
    // None ready, none under way: the caller adds the worktree itself.
    expect(await spare.claim(join(repo, ".claude/worktrees/late"), "claude-a2a/late")).toBe(false);
    expect(await exists(join(repo, ".claude/worktrees/late"))).toBe(false);
    await spare.close();
  });

  it("is not used for a conversation whose branch exists, and stays ready", async () => {
    const m = await open();
    const c = conv("back");
    const first = await m.prepare(c);
    await writeFile(join(first, "b.txt"), "kept\n");
    await m.finish(c, "t1", "completed");
    await m.spare.settled();
    const old = new Date(Date.now() - 3 * 86_400_000);
    await utimes(first, old, old);
    await utimes(m.spare.path, old, old);
    // Retention removes the conversation's worktree, never the spare.
    expect(await m.prune(Date.now() - 86_400_000)).toEqual([worktreeName(c.key, c.contextId)]);
    expect(m.spare.ready).toBe(true);
    expect(await exists(join(m.spare.path, ".git"))).toBe(true);
    const again = await m.prepare(c);
    // Back at the same path (a taken spare's: the link stayed), where its transcripts are keyed.
    expect(again).toBe(first);
    expect(await readFile(join(again, "b.txt"), "utf8")).toBe("kept\n");
    expect(m.spare.ready).toBe(true);
  });

  it("gets an index written after its files once the clock has passed them, so git trusts their timestamps (no re-read of every file)", async () => {
    for (let i = 0; i < 50; i++) await writeFile(join(repo, `f${i}.txt`), `${i}\n`);
    git(repo, "add", "--all");
    git(repo, "commit", "-q", "-m", "files");
    const m = await open();
    await m.spare.settled();
    await m.spare.indexRefreshed();
    const dir = m.spare.path;
    const index = await stat(
      git(dir, "rev-parse", "--path-format=absolute", "--git-path", "index").trim(),
    );
    const files = git(dir, "ls-files", "-z")
      .split("\0")
      .filter((f) => f !== "");
    expect(files.length).toBeGreaterThan(50);
    const second = (ms: number) => Math.floor(ms / 1000);
    // An entry is racily clean when its file's second is not before the index's.
    for (const f of files) {
      expect(second((await stat(join(dir, f))).mtimeMs)).toBeLessThan(second(index.mtimeMs));
    }
  });

  it("is taken at once while its index refresh waits: no lock left behind, and it commits as any other", async () => {
    const m = await open();
    await m.spare.settled();
    const c = conv("quick");
    const cwd = await m.prepare(c);
    await m.spare.indexRefreshed();
    const gitDir = git(cwd, "rev-parse", "--path-format=absolute", "--git-dir").trim();
    expect(await exists(join(gitDir, "index.lock"))).toBe(false);
    expect(git(cwd, "status", "--porcelain")).toBe("");
    await writeFile(join(cwd, "a.txt"), "three\n");
    expect((await m.finish(c, "t1", "completed"))?.files).toEqual([
      { path: "a.txt", change: "modified" },
    ]);
  });

  it("never shares a name with a conversation", () => {
    const spare = spareName(repo);
    expect(spare.startsWith(".")).toBe(true);
    for (const id of [spare, `.${spare}`, "..", ".", "-.x"]) {
      expect(worktreeName(`token:ci|${id}`, id).startsWith(".")).toBe(false);
    }
    expect(spareName("/other/workspace")).not.toBe(spare);
  });

  it("is removed at shutdown; a leftover of a crash is replaced at startup", async () => {
    const before = status();
    const m = await open();
    await m.spare.settled();
    const path = m.spare.path;
    await m.close();
    opened.splice(0);
    expect(await exists(path)).toBe(false);
    // A crash: an untaken spare left behind, its checkout half written.
    await initRepository(path, { common: join(repo, ".git") });
    await writeFile(join(path, ".git/claude-a2a-spare"), "");
    const n = await open();
    await n.spare.settled();
    expect(n.spare.ready).toBe(true);
    // The leftover is gone; the new spare has a folder of its own.
    expect(await exists(path)).toBe(false);
    expect(git(n.spare.path, "status", "--porcelain")).toBe("");
    const spares = (await readdir(n.dir)).filter((f) => f.startsWith(spareName(repo)));
    expect(spares).toHaveLength(1);
    expect(status()).toBe(before);
  });
});
