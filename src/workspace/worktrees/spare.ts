import { createHash } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "pino";
import { runGit } from "./git.js";

/**
 * The spare worktree: one checkout of the workspace's HEAD, detached, kept ready in the
 * background, so a conversation's first task takes it (`git worktree move` and `git switch -c`,
 * both cheap) instead of waiting for `git worktree add` to write every file.
 *
 * Why building it outside the repository's queue is safe: it is a worktree of its own (its own
 * index, its own detached HEAD, no ref of the repository is written), `git worktree add` marks
 * it locked while it is written, and it is added `--lock`ed, so a `git worktree prune` (ours in
 * the queue, or the user's) never drops it; new worktrees' admin folders are made with an atomic
 * `mkdir`. Only taking it (a move, a branch: refs) runs in the queue.
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
  private building: Promise<void> | undefined;
  /** The commit the spare under way is being made at (known once the build read HEAD). */
  private buildingAt: string | undefined;
  private closed = false;

  constructor(
    /** The workspace (git runs there). */
    private readonly cwd: string,
    /** The spare's folder. */
    readonly path: string,
    private readonly logger: Logger,
  ) {}

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
        this.buildingAt = undefined;
      });
    this.building = job;
  }

  /** Resolves when no build is under way (tests, the bench, shutdown). */
  async settled(): Promise<void> {
    while (this.building !== undefined) await this.building;
  }

  /** A spare is ready (built, not taken). */
  get ready(): boolean {
    return this.commit !== undefined && this.building === undefined;
  }

  /**
   * Makes the spare the worktree `target` on the new branch `branch`, when one is ready (or
   * under way) at the workspace's HEAD; false otherwise (the caller does `git worktree add`). A
   * spare left behind by HEAD is rebuilt in the background. Run it in the repository's queue.
   *
   * A spare under way at HEAD is waited for rather than added beside: what is left of its build
   * is at most a whole `git worktree add`, and two checkouts written at once share the disk
   * (measured: a fallback beside a build took about twice today's time at 20,000 files).
   */
  async claim(target: string, branch: string): Promise<boolean> {
    const head = (await runGit(this.cwd, ["rev-parse", "--verify", "HEAD^{commit}"])).stdout.trim();
    if (this.building !== undefined) {
      if (this.buildingAt !== undefined && this.buildingAt !== head) return false;
      await this.settled();
    }
    const commit = this.commit;
    if (commit === undefined || this.building !== undefined) return false;
    this.commit = undefined;
    if (head !== commit) {
      this.logger.info({ spare: commit, head }, "the spare worktree is behind HEAD: rebuilding it");
      return false;
    }
    try {
      await runGit(this.cwd, ["worktree", "unlock", this.path]);
      await runGit(this.cwd, ["worktree", "move", this.path, target]);
    } catch (err) {
      this.logger.warn({ err }, "the spare worktree could not be taken");
      return false;
    }
    try {
      // Same commit: no file is written, the index is kept.
      await runGit(target, ["switch", "--quiet", "--create", branch]);
    } catch (err) {
      this.logger.warn({ err }, "the spare worktree could not take the conversation's branch");
      await runGit(this.cwd, ["worktree", "remove", "--force", target]).catch(() => undefined);
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
    // A spare left by an earlier run (or one behind HEAD) goes first.
    await this.discard();
    if (this.closed) return;
    const head = (await runGit(this.cwd, ["rev-parse", "--verify", "HEAD^{commit}"])).stdout.trim();
    this.buildingAt = head;
    await mkdir(join(this.path, ".."), { recursive: true });
    // `--force` twice: a registered but missing and locked spare (a crash) is replaced.
    await runGit(this.cwd, [
      "worktree",
      "add",
      "--quiet",
      "--force",
      "--force",
      "--lock",
      "--detach",
      this.path,
      head,
    ]);
    this.commit = head;
    this.logger.debug({ path: this.path, commit: head }, "spare worktree ready");
    for (const listener of this.readyListeners) listener();
  }

  /** Removes the spare's worktree and folder, if there is one. */
  private async discard(): Promise<void> {
    await runGit(this.cwd, ["worktree", "remove", "--force", "--force", this.path], {
      okCodes: [128],
    }).catch(() => undefined);
    await rm(this.path, { recursive: true, force: true });
  }
}
