/**
 * The two layouts of `claude.isolation: "worktree"` side by side, in this process (issue 46):
 *
 * - today's (before issue 46, d69ad61): each conversation's worktree a linked worktree of the
 *   workspace's repository (`git worktree add -b`: its objects, refs and `packed-refs` shared,
 *   an admin folder `.git/worktrees/<id>` per worktree); the spare a locked detached linked
 *   worktree, taken with `worktree unlock`, a link and `git switch --create`. Done here with the
 *   git commands that code ran, through the same `runGit`;
 * - the new one: a repository per conversation (conversation-repo.ts: `git init`, the
 *   workspace's objects borrowed through `objects/info/alternates`, `checkout -b`), through the
 *   real `WorktreeManager`, without a spare and taking one.
 *
 * Each on its own copy of one generated repository, interleaved round by round (the order
 * alternates). A round, per layout: a new worktree without a spare, one changed file committed,
 * a task that changed nothing; then a spare taken, one file committed, and the next spare built
 * (and its index refreshed) before anything else runs. The disk a conversation adds is read
 * after its commit; then its worktree is removed (its branch stays), so the rounds do not fill
 * the disk (a 20,000-file checkout allocates about 80 MB).
 */
import { execFileSync } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pino } from "pino";
import { commitTask } from "../src/workspace/worktrees/commit.js";
import { publish } from "../src/workspace/worktrees/conversation-repo.js";
import { runGit } from "../src/workspace/worktrees/git.js";
import {
  refreshIndexLater,
  type PendingRefresh,
} from "../src/workspace/worktrees/index-refresh.js";
import { WorktreeManager } from "../src/workspace/worktrees/manager.js";
import { branchName, worktreeName } from "../src/workspace/worktrees/names.js";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@localhost", ...args], {
    cwd,
    stdio: "pipe",
  });

/** A repository of `files` small source files, 100 per folder, in one commit. */
export async function generateRepository(dir: string, files: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < files; i += 100) {
    const folder = join(dir, "src", `m${Math.floor(i / 100)}`);
    await mkdir(folder, { recursive: true });
    const batch = [];
    for (let j = i; j < Math.min(i + 100, files); j++) {
      batch.push(writeFile(join(folder, `f${j}.ts`), `export const v${j} = ${j};\n`));
    }
    await Promise.all(batch);
  }
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "generated");
}

/** Bytes the disk allocates for `paths` (`du`: blocks, each inode once). */
export function diskBytes(...paths: string[]): number {
  const out = execFileSync("du", ["-s", "-c", "--block-size=1", ...paths], { encoding: "utf8" });
  return Number(/^(\d+)\s+total$/m.exec(out)?.[1] ?? Number.NaN);
}

const ms = async (job: () => Promise<unknown>): Promise<number> => {
  const t = performance.now();
  await job();
  return performance.now() - t;
};

/** Today's layout, with the git commands of d69ad61's manager.ts and spare.ts. */
class LinkedWorktrees {
  private serial = 0;
  private spare: { path: string; refresh: PendingRefresh } | undefined;

  constructor(
    private readonly cwd: string,
    private readonly dir: string,
    private readonly base: string,
  ) {}

  /** `prepare` without a spare: prune, the branch looked up, `git worktree add -b`. */
  async add(name: string): Promise<string> {
    const path = join(this.dir, name);
    await this.lookUp(name);
    await mkdir(this.dir, { recursive: true });
    await runGit(this.cwd, ["worktree", "add", "--quiet", "-b", branchName(name), path, this.base]);
    return path;
  }

  /** The spare, built ahead: a locked detached worktree; then its index refreshed. */
  async buildSpare(): Promise<void> {
    const path = join(this.dir, `.spare-${Date.now()}${++this.serial}`);
    await mkdir(this.dir, { recursive: true });
    await runGit(this.cwd, [
      ...["worktree", "add", "--quiet", "--force", "--force", "--lock", "--detach"],
      ...[path, this.base],
    ]);
    this.spare = { path, refresh: refreshIndexLater(path, Date.now(), () => undefined) };
  }

  async spareRefreshed(): Promise<void> {
    await this.spare?.refresh.done;
  }

  /** `prepare` taking the spare: prune, the branch looked up, unlock, a link, `switch -c`. */
  async take(name: string): Promise<string> {
    const spare = this.spare;
    if (spare === undefined) throw new Error("workspace: no spare linked worktree");
    this.spare = undefined;
    await this.lookUp(name);
    await spare.refresh.cancel();
    await runGit(this.cwd, ["worktree", "unlock", spare.path]);
    await symlink(basename(spare.path), join(this.dir, name));
    await runGit(spare.path, ["switch", "--quiet", "--create", branchName(name)]);
    return spare.path;
  }

  /** The worktree's admin folder in the workspace's repository (`.git/worktrees/<id>`). */
  async adminOf(folder: string): Promise<string> {
    const dotGit = await readFile(join(folder, ".git"), "utf8");
    return resolve(folder, dotGit.replace(/^gitdir: /, "").trim());
  }

  /** Retention's removal (the branch stays). */
  async remove(name: string, folder: string): Promise<void> {
    await runGit(this.cwd, ["worktree", "remove", "--force", "--force", folder]);
    await rm(join(this.dir, name), { force: true });
  }

  private async lookUp(name: string): Promise<void> {
    await runGit(this.cwd, ["worktree", "prune"]);
    const ref = `refs/heads/${branchName(name)}`;
    await runGit(this.cwd, ["rev-parse", "--verify", "--quiet", ref], { okCodes: [1] });
  }
}

/** One layout's samples of one repository size. */
export interface LayoutSamples {
  readonly add: number[];
  readonly take: number[];
  /** End-of-task commit of 1 file: the first task after a worktree added, after a spare taken. */
  readonly commitAdded: number[];
  readonly commitTaken: number[];
  readonly unchanged: number[];
  /** The next spare built (in the background in the server), and its disk. */
  readonly spareBuild: number[];
  /** Bytes a conversation adds after its first commit: all of it, and its git metadata alone. */
  readonly disk: number[];
  readonly gitDisk: number[];
  /** The new layout only: the branch published to the workspace's repository (anonymous). */
  readonly publish: number[];
  /** The workspace's `.git` after the rounds minus before, per conversation made. */
  readonly workspaceGrowth: number[];
}

const empty = (): LayoutSamples => ({
  add: [],
  take: [],
  commitAdded: [],
  commitTaken: [],
  unchanged: [],
  spareBuild: [],
  disk: [],
  gitDisk: [],
  publish: [],
  workspaceGrowth: [],
});

const change = (folder: string, round: number) =>
  writeFile(join(folder, "src", "m0", "f0.ts"), `export const v0 = ${round + 1};\n`);

const commitOf = async (job: () => Promise<unknown>): Promise<number> => {
  const t = performance.now();
  if ((await job()) === undefined) throw new Error("workspace: the commit made nothing");
  return performance.now() - t;
};

/** Both layouts on `files` files, `rounds` interleaved rounds. */
export async function compareLayouts(
  files: number,
  rounds: number,
): Promise<{ today: LayoutSamples; repo: LayoutSamples }> {
  // The index refreshes wait on unref'd timers: nothing else may hold the process meanwhile.
  const alive = setInterval(() => undefined, 1_000);
  const root = await mkdtemp(join(tmpdir(), "bench-layouts-"));
  const today = empty();
  const repo = empty();
  let spared: WorktreeManager | undefined;
  try {
    const oldCwd = join(root, "today");
    const newCwd = join(root, "new");
    await generateRepository(oldCwd, files);
    await cp(oldCwd, newCwd, { recursive: true });
    const base = git(oldCwd, "rev-parse", "HEAD").toString().trim();
    const dir = ".claude/worktrees";
    const linkedDir = join(oldCwd, dir);
    const linked = new LinkedWorktrees(oldCwd, linkedDir, base);
    const open = (spare: boolean) =>
      WorktreeManager.open({
        cwd: newCwd,
        dir,
        serverPaths: [],
        logger: pino({ level: "silent" }),
        spare,
      });
    const manager = await open(false);
    spared = await open(true);
    const ready = spared;
    await linked.buildSpare();
    await linked.spareRefreshed();
    await ready.spare.settled();
    await ready.spare.indexRefreshed();
    const startDisk = {
      today: diskBytes(join(oldCwd, ".git")),
      repo: diskBytes(join(newCwd, ".git")),
    };

    const roundOfToday = async (r: number) => {
      const name = `c${r}`;
      let folder = "";
      today.add.push(await ms(async () => (folder = await linked.add(name))));
      await change(folder, r);
      today.commitAdded.push(
        await commitOf(() => commitTask(folder, branchName(name), "t", "completed")),
      );
      today.unchanged.push(await ms(() => commitTask(folder, branchName(name), "u", "completed")));
      const admin = await linked.adminOf(folder);
      today.disk.push(diskBytes(folder, admin));
      today.gitDisk.push(diskBytes(join(folder, ".git"), admin));
      await linked.remove(name, folder);
      const other = `s${r}`;
      today.take.push(await ms(async () => (folder = await linked.take(other))));
      await change(folder, r);
      today.commitTaken.push(
        await commitOf(() => commitTask(folder, branchName(other), "s", "completed")),
      );
      today.spareBuild.push(await ms(() => linked.buildSpare()));
      await linked.spareRefreshed();
      await linked.remove(other, folder);
    };

    const roundOfRepo = async (r: number) => {
      const conversation = { key: `bench|c${r}`, contextId: `c${r}` };
      let folder = "";
      repo.add.push(await ms(async () => (folder = await manager.prepare(conversation))));
      await change(folder, r);
      repo.commitAdded.push(await commitOf(() => manager.finish(conversation, "t", "completed")));
      await manager.prepare(conversation);
      repo.unchanged.push(await ms(() => manager.finish(conversation, "u", "completed")));
      repo.disk.push(diskBytes(folder));
      repo.gitDisk.push(diskBytes(join(folder, ".git")));
      const branch = manager.branchOf(conversation);
      repo.publish.push(await ms(() => publish(newCwd, folder, branch)));
      await rm(folder, { recursive: true, force: true });
      const other = { key: `bench|s${r}`, contextId: `s${r}` };
      repo.take.push(await ms(async () => (folder = await ready.prepare(other))));
      await change(folder, r);
      repo.commitTaken.push(await commitOf(() => ready.finish(other, "s", "completed")));
      // `finish` started the next spare: until it is built and refreshed, nothing else runs.
      repo.spareBuild.push(await ms(() => ready.spare.settled()));
      await ready.spare.indexRefreshed();
      repo.publish.push(await ms(() => publish(newCwd, folder, ready.branchOf(other))));
      await rm(folder, { recursive: true, force: true });
      await rm(join(ready.dir, worktreeName(other.key, other.contextId)), { force: true });
    };

    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? [roundOfToday, roundOfRepo] : [roundOfRepo, roundOfToday];
      for (const round of order) await round(r);
    }
    // Two conversations a round. What stays once their worktrees are gone: their commits and
    // branches (today's: in the shared store; the new layout's: published, as for the
    // anonymous caller; a caller's own are fetched only when the operator asks).
    const made = 2 * rounds;
    today.workspaceGrowth.push((diskBytes(join(oldCwd, ".git")) - startDisk.today) / made);
    repo.workspaceGrowth.push((diskBytes(join(newCwd, ".git")) - startDisk.repo) / made);
    return { today, repo };
  } finally {
    await spared?.close();
    await rm(root, { recursive: true, force: true });
    clearInterval(alive);
  }
}
