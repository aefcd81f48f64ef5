import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Logger } from "pino";
import { commitTask, type TaskCommit } from "./commit.js";
import { BASE_REFS, hasGit } from "./conversation-repo.js";
import { DamageRecord } from "./damage.js";
import { runGit } from "./git.js";
import { excludeServerFiles } from "./exclude-file.js";
import { branchName, worktreeName } from "./names.js";
import { SerialQueues } from "./serial-queue.js";
import { inspect } from "./repository.js";
import { linked, touch } from "./links.js";
import { SpareWorktree, spareName } from "./spare.js";

export { inspect, WORKTREE_SETUP, WorktreeSetupError } from "./repository.js";

const DAY_MS = 86_400_000;

/**
 * One queue per repository for the whole process: two workspaces in one repository (two of its
 * folders) share their repository's queue.
 */
const PROCESS_QUEUES = new SerialQueues();

export interface WorktreeOptions {
  /** The workspace (`claude.cwd`), absolute. */
  readonly cwd: string;
  /** Where the worktrees go (`claude.worktreeDir`), absolute or relative to `cwd`. */
  readonly dir: string;
  /** The server's own files and folders (a trailing `/`) in the workspace, relative to `cwd`. */
  readonly serverPaths: readonly string[];
  readonly logger: Logger;
  /** The repositories' queues (default: the process's one set, shared by every workspace). */
  readonly queues?: SerialQueues;
  /** Keep a spare worktree ready in the background (default true; false: tests, the bench). */
  readonly spare?: boolean;
  /**
   * Whether the workspace's repository gets a conversation's branch after each of its commits
   * (default: never; the operator fetches with `claude-a2a branches`). The app says yes for the
   * anonymous caller, the only caller of a server without authentication.
   */
  readonly publishes?: (conversation: ConversationRef) => boolean;
}

export type { ConversationRef, ForkPoint } from "./conversation-folders.js";
import {
  ConversationFolders,
  type ConversationRef,
  type ForkPoint,
} from "./conversation-folders.js";

/**
 * The worktree of each conversation: created on its first task, on a branch of its own, from the
 * commit the workspace's HEAD was at when the manager opened (pinned: a conversation that moves
 * the workspace's branch never chooses what the next one starts from); where its Claude Code process runs (the same path for every
 * turn and after a restart: the name is a function of the conversation); committed to at the end
 * of each task; removed under retention (`prune`) while its branch stays. The workspace's own
 * checkout is never touched: its files, index and HEAD stay as they are.
 */
export class WorktreeManager {
  /** Conversations' end-of-task commits in flight: their next task starts after them. */
  private readonly pending = new Map<string, Promise<unknown>>();
  /** Tasks between `prepare` and `finish`, by worktree name: retention leaves those alone. */
  private readonly inUse = new Map<string, number>();
  /** A worktree at HEAD kept ready, so a first task need not wait for `git worktree add`. */
  readonly spare: SpareWorktree;
  /** Git state found damaged while serving (`/healthz`). */
  readonly damage = new DamageRecord();
  private readonly folders: ConversationFolders;

  private constructor(
    private readonly options: WorktreeOptions,
    /** The repository's common git dir: the key of its queue. */
    private readonly repo: string,
    /** The workspace's path inside the repository (`sub/dir/` or ""). */
    private readonly prefix: string,
    readonly dir: string,
    private readonly queues: SerialQueues,
    /** The commit new worktrees start from: the workspace's HEAD at startup, as an id. */
    readonly base: string,
  ) {
    this.spare = new SpareWorktree(
      { common: repo },
      join(dir, spareName(options.cwd)),
      base,
      options.logger,
    );
    this.folders = new ConversationFolders({
      cwd: options.cwd,
      dir,
      common: repo,
      base,
      logger: options.logger,
      damage: this.damage,
      spare: this.spare,
      replenish: () => this.replenish(),
      nameOf: (c) => this.nameOf(c),
    });
  }

  /**
   * Checks that the workspace is in a git repository with a commit, and excludes the worktrees
   * folder and the server's files in `.git/info/exclude`. Throws `WorktreeSetupError` otherwise.
   */
  static async open(o: WorktreeOptions): Promise<WorktreeManager> {
    const { top, prefix, common, head } = await inspect(o.cwd);
    const repo = resolve(o.cwd, common);
    const dir = resolve(o.cwd, o.dir);
    const queues = o.queues ?? PROCESS_QUEUES;
    const manager = new WorktreeManager(o, repo, prefix, dir, queues, head);
    o.logger.info({ base: head }, "new worktrees start from the workspace's HEAD at startup");
    await queues.run(repo, async () => {
      await excludeServerFiles(repo, top, dir, o);
      // The conversations' repositories borrow the base's objects: a ref keeps a later
      // `git gc` of the workspace from dropping them, should its branches move on.
      await runGit(o.cwd, ["update-ref", `${BASE_REFS}${head}`, head]);
    });
    if (o.spare !== false) manager.spare.replenish();
    return manager;
  }

  /**
   * The folder a conversation's Claude Code process runs in (it exists once `prepare` ran): its
   * worktree, or the spare it took, which its link names (see spare.ts).
   */
  cwdOf(conversation: ConversationRef): string {
    return join(linked(this.dir, this.pathOf(conversation)), this.prefix);
  }

  /** Where a spare Claude Code process runs: the ready spare worktree (`sessions.spares`). */
  spareCwd(): string | undefined {
    return this.spare.ready ? join(this.spare.path, this.prefix) : undefined;
  }

  /** The conversation's branch. */
  branchOf(conversation: ConversationRef): string {
    return branchName(this.nameOf(conversation));
  }

  /**
   * Makes sure the conversation's worktree exists (after its last commit), and returns the
   * folder its process runs in. After the first task it is one `access` call: no git runs.
   */
  async prepare(conversation: ConversationRef, from?: ForkPoint): Promise<string> {
    const name = this.nameOf(conversation);
    this.inUse.set(name, (this.inUse.get(name) ?? 0) + 1);
    try {
      await this.pending.get(name);
      const path = join(this.dir, name);
      const ready = await hasGit(path);
      if (!ready) {
        await this.serial(() => this.folders.create(name, path, from));
        this.damage.clear(name);
      }
      await touch(path);
      return this.cwdOf(conversation);
    } catch (err) {
      this.damage.record(name, err);
      this.release(name);
      throw err;
    }
  }

  /**
   * The end of a task that `prepare`d: commits what changed in the worktree on its branch
   * (undefined when nothing did). The conversation's next `prepare` waits for it.
   */
  finish(
    conversation: ConversationRef,
    taskId: string,
    state: string,
  ): Promise<TaskCommit | undefined> {
    const name = this.nameOf(conversation);
    const path = join(this.dir, name);
    const done = this.queues.run(this.repo, async () => {
      const exists = await hasGit(path);
      if (!exists) return undefined;
      let commit: TaskCommit | undefined;
      try {
        commit = await commitTask(path, branchName(name), taskId, state);
      } catch (err) {
        this.damage.record(name, err);
        throw err;
      }
      this.damage.clear(name);
      await touch(path);
      if (commit !== undefined) await this.publishIfAsked(conversation);
      return commit;
    });
    // The next spare, if the last one was taken (a no-op when one is ready or on its way).
    void done.finally(() => this.replenish()).catch(() => undefined);
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    this.pending.set(name, settled);
    void settled.then(() => {
      if (this.pending.get(name) === settled) this.pending.delete(name);
      this.release(name);
    });
    return done;
  }

  /**
   * Removes the worktrees no task has used since `before` (epoch ms) and none uses now. Each
   * branch stays, unless it holds nothing the workspace's HEAD lacks (`git branch -d`: nothing
   * was ever committed on it, or it was merged). Returns the names removed.
   */
  async prune(before: number): Promise<string[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const removed: string[] = [];
    for (const name of names) {
      // The spare is no conversation's: it is never retention's.
      if (this.inUse.has(name) || name.startsWith(".")) continue;
      const path = join(this.dir, name);
      const info = await stat(path).catch(() => undefined);
      if (info === undefined || !info.isDirectory() || info.mtimeMs >= before) continue;
      const gone = await this.queues.run(this.repo, async () => {
        if (this.inUse.has(name) || !(await this.folders.isOurs(path, name))) return false;
        await this.folders.remove(name, path);
        return true;
      });
      if (gone) removed.push(name);
    }
    if (removed.length > 0) {
      this.options.logger.info({ count: removed.length }, "removed expired worktrees");
    }
    return removed;
  }

  /** Runs `job` in the repository's queue (a rewind's reset: it takes the worktree's index). */
  serial<T>(job: () => Promise<T>): Promise<T> {
    return this.queues.run(this.repo, job);
  }

  /** Resolves when every end-of-task commit started so far has settled (shutdown). */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending.values()]);
  }

  /** Shutdown: the commits under way are made, and the spare is removed. */
  async close(): Promise<void> {
    await this.drain();
    await this.spare.close();
  }

  /**
   * Prunes now, then every day: worktrees no task used for `retainDays` days (the days after
   * which their tasks are pruned, `store.retainDays`) go. Returns the stop. `0`: never.
   */
  scheduleRetention(retainDays: number, everyMs = DAY_MS): () => void {
    if (retainDays <= 0) return () => undefined;
    const pass = () => {
      this.prune(Date.now() - retainDays * DAY_MS).catch((err: unknown) => {
        this.options.logger.error({ err }, "removing expired worktrees failed");
      });
    };
    pass();
    const timer = setInterval(pass, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private nameOf(conversation: ConversationRef): string {
    return worktreeName(conversation.key, conversation.contextId);
  }

  private pathOf(conversation: ConversationRef): string {
    return join(this.dir, this.nameOf(conversation));
  }

  /** Builds the next spare in the background (outside the queue: see spare.ts). */
  private replenish(): void {
    if (this.options.spare !== false) this.spare.replenish();
  }

  /**
   * The workspace's repository gets the conversation's branch, when the options say so (a
   * failure is shown as the workspace's damage; the commit stands in the conversation's).
   */
  async publishIfAsked(conversation: ConversationRef): Promise<void> {
    if (this.options.publishes?.(conversation) !== true) return;
    await this.folders.publish(this.nameOf(conversation));
  }

  private release(name: string): void {
    const n = (this.inUse.get(name) ?? 1) - 1;
    if (n > 0) this.inUse.set(name, n);
    else this.inUse.delete(name);
  }
}
