import { access, lstat, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "pino";
import {
  checkOut,
  fetchCommit,
  hasCommit,
  holdsOwnWork,
  initRepository,
  keepRepository,
  keptRepository,
  publish,
  repositoryOf,
  restoreRepository,
} from "./conversation-repo.js";
import { type DamageRecord, WORKSPACE_REPOSITORY } from "./damage.js";
import { runGit } from "./git.js";
import { dropLink, folderOf, isLink, linked } from "./links.js";
import { branchName } from "./names.js";
import type { SpareWorktree } from "./spare.js";

/** A conversation as the worktrees know it: its key (the hash) and its context id (readable). */
export interface ConversationRef {
  readonly key: string;
  readonly contextId: string;
}

/** Where a fork's worktree starts: a commit of the source conversation's repository. */
export interface ForkPoint {
  readonly commit: string;
  readonly source: ConversationRef;
}

/** What the folders need of their manager. */
export interface FoldersContext {
  /** The workspace (git of its repository runs there). */
  readonly cwd: string;
  /** The worktrees folder, absolute. */
  readonly dir: string;
  /** The workspace's common git dir, absolute: what new repositories borrow. */
  readonly common: string;
  /** The pinned base commit. */
  readonly base: string;
  readonly logger: Logger;
  readonly damage: DamageRecord;
  readonly spare: Pick<SpareWorktree, "claim">;
  /** Builds the next spare in the background. */
  replenish(): void;
  nameOf(conversation: ConversationRef): string;
}

/**
 * The folders of the conversations, each with its repository (conversation-repo.ts): made,
 * restored after retention, removed by it, and published to the workspace's repository. Run
 * each step in the workspace's queue (`WorktreeManager.serial`).
 */
export class ConversationFolders {
  constructor(private readonly o: FoldersContext) {}

  /**
   * Retention's removal of a conversation's worktree. Its repository is kept when it holds work
   * the workspace's HEAD lacks, so the branch survives the folder; a taken spare's link stays,
   * so the worktree comes back at the same path (where its transcripts are keyed).
   */
  async remove(name: string, path: string): Promise<void> {
    const real = await folderOf(path);
    if (await isLegacy(real)) {
      // A worktree an earlier version added to the workspace's own repository.
      await runGit(this.o.cwd, ["worktree", "remove", "--force", real]);
    } else {
      // Unsure (the workspace's HEAD unreadable): kept.
      const head = await runGit(this.o.cwd, ["rev-parse", "HEAD"]).then(
        (r) => r.stdout.trim(),
        () => undefined,
      );
      if (head === undefined || (await holdsOwnWork(real, head))) {
        await keepRepository(real, keptRepository(this.o.dir, name));
      }
      await rm(real, { recursive: true, force: true });
    }
    // A branch in the workspace's repository (published, or an earlier version's) with nothing
    // of its own goes too (`-d`: never one that holds unmerged work).
    await runGit(this.o.cwd, ["branch", "-d", branchName(name)], { okCodes: [1] }).catch(
      (err: unknown) => this.o.damage.record(WORKSPACE_REPOSITORY, err),
    );
  }

  /**
   * The workspace's repository gets the conversation's branch, when the options say so. A
   * failure is the workspace's, not the task's: it is logged and shown as damage, and the
   * commit stands in the conversation's repository.
   */
  async publish(name: string): Promise<void> {
    const folder = linked(this.o.dir, join(this.o.dir, name));
    if (await isLegacy(folder)) return;
    try {
      await publish(this.o.cwd, folder, branchName(name));
      this.o.damage.clear(WORKSPACE_REPOSITORY);
    } catch (err) {
      this.o.damage.record(WORKSPACE_REPOSITORY, err);
      this.o.logger.warn({ err }, "the conversation's branch could not be published");
    }
  }

  /**
   * A new worktree, with a repository of its own (conversation-repo.ts): the one retention kept,
   * back in place; else a spare taken; else made, on the conversation's branch from its commit
   * in the workspace's repository (an earlier version's branch), `from` (a fork's commit, fetched
   * from its source's repository) or the pinned base: a commit id, never a ref a conversation
   * could have moved.
   */
  async create(name: string, path: string, from?: ForkPoint): Promise<void> {
    const branch = branchName(name);
    const kept = keptRepository(this.o.dir, name);
    const link = await isLink(path);
    const where = link ? linked(this.o.dir, path) : path;
    if (await exists(kept)) {
      await restoreRepository(kept, where);
      this.o.logger.info({ branch, path, resumed: true }, "worktree created");
      return;
    }
    // A link to a taken spare whose folder went with nothing worth keeping: it starts over.
    if (link) await dropLink(path);
    const resumed = await this.earlierBranch(branch);
    const spare =
      resumed === undefined && from === undefined && (await this.o.spare.claim(path, branch));
    if (!spare) {
      try {
        await initRepository(path, { common: this.o.common });
        if (resumed === undefined && from !== undefined) await this.fetchFork(path, from);
        await checkOut(path, resumed ?? from?.commit ?? this.o.base, branch);
      } catch (err) {
        // Half made, it would pass for ready: the next task makes it again.
        await rm(path, { recursive: true, force: true });
        throw err;
      }
      // None was ready: the next one now. A spare just taken: the next one after this task's
      // commit (`finish`), so its checkout does not compete with this conversation's first
      // turn and commit for the disk and the cores.
      this.o.replenish();
    }
    const how = { resumed: resumed !== undefined, spare };
    this.o.logger.info({ branch, path, ...how }, "worktree created");
  }

  /**
   * The commit of `branch` in the workspace's repository: an earlier version's conversation
   * branch, or one published. A workspace whose refs cannot be read is damage, shown as such;
   * the conversation starts anew rather than failing with it.
   */
  private async earlierBranch(branch: string): Promise<string | undefined> {
    const ref = `refs/heads/${branch}^{commit}`;
    try {
      const earlier = await runGit(this.o.cwd, ["rev-parse", "--verify", "--quiet", ref], {
        okCodes: [1],
      });
      return earlier.code === 0 ? earlier.stdout.trim() : undefined;
    } catch (err) {
      this.o.damage.record(WORKSPACE_REPOSITORY, err);
      this.o.logger.warn({ err }, "the workspace's repository could not be read");
      return undefined;
    }
  }

  /** A fork's commit into the new repository at `path`, from its source's (objects only). */
  private async fetchFork(path: string, from: ForkPoint): Promise<void> {
    if (await hasCommit(path, from.commit)) return;
    const name = this.o.nameOf(from.source);
    const source = await repositoryOf(
      linked(this.o.dir, join(this.o.dir, name)),
      keptRepository(this.o.dir, name),
    );
    if (source === undefined) throw new Error(`the fork's source has no repository (${name})`);
    await fetchCommit(path, source, from.commit);
  }

  /** A worktree of ours (the folder may hold Claude Code's own `--worktree`s): on our branch. */
  async isOurs(path: string, name: string): Promise<boolean> {
    const head = await runGit(path, ["symbolic-ref", "--quiet", "HEAD"], { okCodes: [1] }).catch(
      () => undefined,
    );
    return head?.stdout.trim() === `refs/heads/${branchName(name)}`;
  }
}

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/** A worktree of the workspace's own repository (an earlier version's): its `.git` is a file. */
const isLegacy = async (folder: string): Promise<boolean> =>
  (await lstat(join(folder, ".git")).catch(() => undefined))?.isFile() === true;
