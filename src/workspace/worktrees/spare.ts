import { createHash } from "node:crypto";
import { access, readdir, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Logger } from "pino";
import { checkOut, initRepository, type RepositorySource } from "./conversation-repo.js";
import { runGit } from "./git.js";
import { refreshIndexLater, type PendingRefresh } from "./index-refresh.js";

/** In an untaken spare's `.git`: taking it removes the mark, so clean-up leaves it alone. */
const UNTAKEN = "claude-a2a-spare";

/**
 * The spare worktree: one checkout of the base commit (the workspace's HEAD at startup, pinned
 * by the manager), detached, kept ready in the
 * background, so a conversation's first task takes it (a link and `git switch -c`, both cheap)
 * instead of waiting for `git worktree add` to write every file.
 *
 * It never moves: a spare Claude Code process (`sessions.spares`) may already run in it, and
 * Claude Code keeps its folder (its transcripts lie under that path). So each spare gets a
 * folder of its own (the spare's name and a serial), and the conversation that takes it names
 * it by a link, `<worktrees>/<conversation's name>` → that folder (`WorktreeManager.cwdOf`
 * follows it).
 *
 * Each spare is a repository of its own (conversation-repo.ts), as every conversation's is: the
 * conversation that takes it takes its repository too. Why building it outside the workspace's
 * queue is safe: it writes nothing of the workspace's repository (it only reads its objects), and
 * an untaken spare is marked in its own `.git`, so clean-up never takes a conversation's.
 */

/**
 * Its folder's name in the worktrees folder: it starts with `.`, which a conversation's name
 * never does (`readablePart` strips leading dots), and it names the workspace, so two workspaces
 * sharing one worktrees folder keep one each. Pure.
 */
export function spareName(cwd: string): string {
  const hash = createHash("sha256").update(cwd).digest("hex").slice(0, 10);
  return `.claude-a2a-spare-${hash}`;
}

export class SpareWorktree {
  /** The commit the ready spare is checked out at (undefined: none ready). */
  private commit: string | undefined;
  /** The folder of the spare ready or being built (undefined: none yet). */
  private current: string | undefined;
  private serial = 0;
  private building: Promise<void> | undefined;
  private closed = false;
  /** The ready spare's index refresh, until it is done or the spare is taken. */
  private refresh: PendingRefresh | undefined;

  constructor(
    /** What each spare's repository borrows from the workspace's. */
    private readonly source: RepositorySource,
    /** The spares' folders start with this (`spareName`, in the worktrees folder). */
    private readonly base: string,
    /** The commit id every spare is checked out at (never a ref: see manager.ts). */
    private readonly at: string,
    private readonly logger: Logger,
  ) {}

  /** The folder of the spare ready, or being built. */
  get path(): string {
    return this.current ?? this.base;
  }

  private readonly readyListeners: (() => void)[] = [];

  /** Calls `listener` each time a spare is built. */
  onReady(listener: () => void): void {
    this.readyListeners.push(listener);
  }

  /** Builds a spare in the background unless one is ready or on its way. Never throws. */
  replenish(): void {
    if (this.closed || this.building !== undefined || this.commit !== undefined) return;
    const job: Promise<void> = this.build()
      .catch((err: unknown) => {
        this.commit = undefined;
        this.logger.warn({ err }, "the spare worktree could not be made");
      })
      .finally(() => {
        if (this.building !== job) return;
        this.building = undefined;
        if (this.ready) for (const listener of this.readyListeners) listener();
      });
    this.building = job;
  }

  /** Resolves when no build is under way (tests, the bench, shutdown). */
  async settled(): Promise<void> {
    while (this.building !== undefined) await this.building;
  }

  /** Resolves when the ready spare's index is refreshed (or never will be): tests, the bench. */
  async indexRefreshed(): Promise<void> {
    await this.refresh?.done;
  }

  /** A spare is ready (built, not taken). */
  get ready(): boolean {
    return this.commit !== undefined && this.building === undefined;
  }

  /**
   * Makes the spare the worktree `target` on the new branch `branch`, when one is ready (or
   * under way); false otherwise (the caller does `git worktree add`). Every spare is at the base
   * commit, where every new worktree starts: whatever the workspace's HEAD says now (a moved
   * branch is no reason to rebuild). Run it in the repository's queue.
   *
   * A spare under way is waited for rather than added beside: what is left of its build is at
   * most a whole `git worktree add`, and two checkouts written at once share the disk
   * (measured: a fallback beside a build took about twice today's time at 20,000 files).
   */
  async claim(target: string, branch: string): Promise<boolean> {
    if (this.building !== undefined) await this.settled();
    const commit = this.commit;
    const path = this.current;
    if (commit === undefined || path === undefined || this.building !== undefined) return false;
    this.commit = undefined;
    this.current = undefined;
    // Its index is the conversation's from now on: a refresh still on its way must not hold the
    // index's lock when `git switch` needs it.
    await this.stopRefresh();
    try {
      // Unmarked, it is a conversation's: a later build's clean-up leaves it alone.
      await unlink(join(path, ".git", UNTAKEN));
      await symlink(basename(path), target);
    } catch (err) {
      this.logger.warn({ err }, "the spare worktree could not be taken");
      await this.remove(path);
      return false;
    }
    try {
      // Same commit: no file is written, the index is kept.
      await runGit(path, ["switch", "--quiet", "--create", branch]);
    } catch (err) {
      this.logger.warn({ err }, "the spare worktree could not take the conversation's branch");
      await unlink(target).catch(() => undefined);
      await this.remove(path);
      return false;
    }
    return true;
  }

  /** No new spare; the one there (or on its way) is removed. */
  async close(): Promise<void> {
    this.closed = true;
    await this.settled();
    this.commit = undefined;
    await this.discard();
  }

  private async build(): Promise<void> {
    // A spare left by an earlier run goes first (it may be at another commit).
    await this.discard();
    if (this.closed) return;
    const head = this.at;
    this.current = `${this.base}${Date.now()}${++this.serial}`;
    await initRepository(this.path, this.source);
    await writeFile(join(this.path, ".git", UNTAKEN), "");
    await checkOut(this.path, head);
    this.commit = head;
    const path = this.path;
    this.refresh = refreshIndexLater(path, Date.now(), (err: unknown) => {
      this.logger.debug({ err, path }, "the spare worktree's index could not be refreshed");
    });
    this.logger.debug({ path, commit: head }, "spare worktree ready");
  }

  private async stopRefresh(): Promise<void> {
    const refresh = this.refresh;
    this.refresh = undefined;
    await refresh?.cancel();
  }

  /**
   * Removes every spare not taken: the folders under the spares' name whose repository still
   * has the mark (a taken one lost it), this run's and those a crash left behind.
   */
  private async discard(): Promise<void> {
    this.current = undefined;
    await this.stopRefresh();
    const dir = dirname(this.base);
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.startsWith(basename(this.base))) continue;
      const path = join(dir, name);
      const untaken = await access(join(path, ".git", UNTAKEN)).then(
        () => true,
        () => false,
      );
      if (untaken) await this.remove(path);
    }
  }

  private async remove(path: string): Promise<void> {
    await rm(path, { recursive: true, force: true });
  }
}
