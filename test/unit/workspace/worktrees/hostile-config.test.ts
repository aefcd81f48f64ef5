/**
 * The server's git runs nothing a repository's config names (src/workspace/worktrees/git.ts,
 * git-settings.ts): a real repository whose `.git/config` (and a file it includes) plants every
 * key that makes git run a program, each pointing at a script that leaves a marker file. The
 * test's own git runs them (so the plant works); the server's commit, diff, worktree, spare and
 * rewind operations never do. And `GIT_*` variables of the server's environment change nothing.
 */
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WorktreeManager } from "../../../../src/workspace/worktrees/manager.js";
import { configIncludes } from "../../../../src/workspace/worktrees/repository.js";
import { diffTo, rewindWorktree } from "../../../../src/workspace/worktrees/rewind.js";
import { runGit } from "../../../../src/workspace/worktrees/git.js";
import { git, initRepo } from "./support/repo.js";

const logger = pino({ level: "silent" });

let root: string;
let repo: string;
let markers: string;
const opened: WorktreeManager[] = [];

/** A program that leaves `<markers>/<name>` and passes its input through (a filter's duty). */
const marking = (name: string) => `${join(root, "mark")} ${name}`;

/** Every key that makes git run a program, each running `marking(<key>)`. */
function plantedConfig(): string {
  return [
    "[core]",
    `  hooksPath = ${join(root, "hooks")}`,
    `  fsmonitor = ${marking("fsmonitor")}`,
    `  pager = ${marking("pager")}`,
    `  editor = ${marking("editor")}`,
    `  askPass = ${marking("askpass")}`,
    `  sshCommand = ${marking("ssh")}`,
    "[sequence]",
    `  editor = ${marking("sequence-editor")}`,
    "[credential]",
    `  helper = !${marking("credential")}`,
    "[gpg]",
    `  program = ${marking("gpg")}`,
    "[commit]",
    "  gpgSign = true",
    "[log]",
    "  showSignature = true",
    "[diff]",
    `  external = ${marking("diff-external")}`,
    '[filter "evil"]',
    `  clean = ${marking("clean")}`,
    `  smudge = ${marking("smudge")}`,
    "  required = true",
    '[filter "proc"]',
    `  process = ${marking("process")}`,
    '[diff "evil"]',
    `  command = ${marking("diff-command")}`,
    `  textconv = ${marking("textconv")}`,
    '[merge "evil"]',
    `  driver = ${marking("merge")} %O %A %B`,
    "[include]",
    `  path = ${join(root, "included.gitconfig")}`,
    "",
  ].join("\n");
}

const marked = async () => (await readdir(markers)).sort();

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "claude-a2a-hostile-git-"));
  markers = join(root, "markers");
  await mkdir(markers);
  await writeFile(join(root, "mark"), `#!/bin/sh\ntouch "${markers}/$1"\ncat\n`);
  await chmod(join(root, "mark"), 0o755);
  await mkdir(join(root, "hooks"));
  for (const hook of ["pre-commit", "post-commit", "post-checkout", "reference-transaction"]) {
    await writeFile(join(root, "hooks", hook), `#!/bin/sh\ntouch "${markers}/hook-${hook}"\n`);
    await chmod(join(root, "hooks", hook), 0o755);
  }
  repo = await initRepo(root);
  await writeFile(
    join(repo, ".gitattributes"),
    "*.txt filter=evil diff=evil merge=evil\n*.dat filter=proc\n*.inc filter=included\n",
  );
  git(repo, "add", ".gitattributes");
  git(repo, "commit", "-q", "-m", "attributes");
  await writeFile(
    join(root, "included.gitconfig"),
    `[filter "included"]\n  clean = ${marking("included-clean")}\n  smudge = ${marking("included-smudge")}\n`,
  );
  await writeFile(join(repo, ".git/config"), plantedConfig(), { flag: "a" });
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(opened.splice(0).map((m) => m.close()));
  await rm(root, { recursive: true, force: true });
});

const open = async () => {
  const m = await WorktreeManager.open({
    cwd: repo,
    dir: ".claude/worktrees",
    serverPaths: [],
    logger,
    // Publishing fetches into the workspace's repository, under its planted config.
    publishes: () => true,
  });
  opened.push(m);
  return m;
};

describe("the server's git in a repository whose config names programs", () => {
  it("the plant works: the test's own git runs them", async () => {
    await writeFile(join(repo, "a.txt"), "changed\n");
    await writeFile(join(repo, "b.dat"), "data\n");
    await writeFile(join(repo, "c.inc"), "included\n");
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
    const plain = (...args: string[]) =>
      execFileSync("git", args, { cwd: repo, env, stdio: "ignore" });
    plain("add", "--all");
    expect(() => plain("commit", "-q", "-m", "x")).toThrow();
    expect(await marked()).toEqual(
      expect.arrayContaining(["clean", "fsmonitor", "included-clean", "process"]),
    );
  });

  it("never runs any of them: worktrees, spares, commits, diffs, rewinds, retention", async () => {
    const m = await open();
    await m.spare.settled();
    expect(m.spare.ready).toBe(true);
    const conv = (id: string) => ({ key: `token:ci|${id}`, contextId: id });
    // One conversation takes the spare, the next gets `git worktree add`.
    const first = await m.prepare(conv("one"));
    const second = await m.prepare(conv("two"));
    for (const cwd of [first, second]) {
      await writeFile(join(cwd, "a.txt"), "changed\n");
      await writeFile(join(cwd, "b.dat"), "data\n");
      await writeFile(join(cwd, "c.inc"), "included\n");
    }
    const commit = await m.finish(conv("one"), "t1", "completed");
    expect(commit?.files.map((f) => f.path)).toEqual(["a.txt", "b.dat", "c.inc"]);
    expect(commit?.diff).toContain("+changed");
    for (const where of [first, repo]) {
      expect(git(where, "log", "-1", "--format=%an %G?", m.branchOf(conv("one")))).toBe(
        "claude-a2a N\n",
      );
    }
    await m.finish(conv("two"), "t2", "completed");
    // A rewind: a diff against the commit before, and a reset to it.
    await writeFile(join(first, "a.txt"), "again\n");
    expect(await diffTo(first, commit?.baseCommit ?? "")).toContain("again");
    await rewindWorktree(first, commit?.baseCommit ?? "", "kept", "t3");
    await m.spare.settled();
    expect(await m.prune(Date.now() + 60_000)).toHaveLength(2);
    expect(await marked()).toEqual([]);
  });

  it("warns of nothing it cannot see: the includes of the repository's config are listed", async () => {
    expect(await configIncludes(repo)).toEqual([join(root, "included.gitconfig")]);
    expect(await configIncludes(root)).toEqual([]);
  });

  it("ignores GIT_DIR, GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT and GIT_EXEC_PATH of the server's environment", async () => {
    const other = join(root, "other");
    await mkdir(other);
    git(other, "init", "-q", "-b", "main");
    vi.stubEnv("GIT_DIR", join(other, ".git"));
    vi.stubEnv("GIT_WORK_TREE", other);
    vi.stubEnv("GIT_CONFIG_PARAMETERS", `'core.fsmonitor'='${marking("parameters")}'`);
    vi.stubEnv("GIT_CONFIG_COUNT", "1");
    vi.stubEnv("GIT_CONFIG_KEY_0", "core.fsmonitor");
    vi.stubEnv("GIT_CONFIG_VALUE_0", marking("count"));
    vi.stubEnv("GIT_EXEC_PATH", join(root, "nowhere"));
    const m = await open();
    const cwd = await m.prepare({ key: "token:ci|env", contextId: "env" });
    await writeFile(join(cwd, "a.txt"), "env\n");
    const commit = await m.finish({ key: "token:ci|env", contextId: "env" }, "t1", "completed");
    const top = (await runGit(repo, ["rev-parse", "--show-toplevel"])).stdout.trim();
    // The test's own git reads the environment: from here on, without those variables.
    vi.unstubAllEnvs();
    expect(top).toBe(repo);
    expect(git(repo, "show", `${commit?.commit ?? ""}:a.txt`)).toBe("env\n");
    // The repository GIT_DIR named got nothing: no commit, no worktree.
    expect(() => git(other, "rev-parse", "--verify", "--quiet", "HEAD")).toThrow();
    expect(git(other, "worktree", "list").split("\n").filter(Boolean)).toHaveLength(1);
    expect(await marked()).toEqual([]);
  });
});
