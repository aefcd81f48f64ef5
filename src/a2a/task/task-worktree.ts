import type { Artifact } from "@a2a-js/sdk";
import type { Logger } from "pino";
import type { ConversationKey } from "../../identity/conversation.js";
import type { TaskCommit } from "../../workspace/worktrees/commit.js";
import { branchName, worktreeName } from "../../workspace/worktrees/names.js";
import { TEXT } from "../../contract/texts.js";
import { diffArtifact, WORKTREE_KEY, worktreeMetadata } from "../../contract/worktree.js";
import type { ForkFrom, TaskIsolation } from "./environment.js";

/**
 * One task's side of its conversation's worktree (`claude.isolation: "worktree"`): the folder it
 * works in, and the commit of what it changed when it ends. A task that completes waits for its
 * commit, so its final status can say what it holds; a task that fails or is canceled has said
 * its last word already, and its changes are committed after it (the branch holds them, the next
 * task's diff is its own).
 */
export class TaskWorktree {
  private commitState: "idle" | "committing" | "done" = "idle";
  private commit: TaskCommit | undefined;
  /** The base of the task's first commit, once a rework made it commit again. */
  private firstBase: string | undefined;
  /** Why the end-of-task commit failed, if it did (the final status says so). */
  private commitFailure: string | undefined;
  /** The folder it works in, once prepared (a delivery's checks run there). */
  cwd: string | undefined;

  constructor(
    private readonly isolation: {
      readonly worktrees: TaskIsolation;
      readonly maxDiffBytes: number;
    },
    private readonly conversation: { key: ConversationKey; contextId: string },
    private readonly taskId: string,
    private readonly logger: Logger,
    /** Where the task records the commits it began and ended at (`metadata.control`). */
    private readonly record: { startCommit?: string; endCommit?: string } = {},
  ) {}

  /** The folder the task works in (its attachments go there too); `from`: a fork's commit. */
  async prepare(from?: ForkFrom): Promise<string> {
    const worktrees = this.isolation.worktrees;
    const cwd = await worktrees.prepare(this.conversation, from);
    this.cwd = cwd;
    const head = await worktrees.head?.(this.conversation).catch(() => undefined);
    if (head !== undefined) this.record.startCommit = this.record.endCommit = head;
    return cwd;
  }

  /**
   * Called where the task would complete: starts the commit and returns true (the task calls
   * `then` again once it is made), or false when it is made and the task may complete now.
   */
  holdCompletion(then: () => void): boolean {
    switch (this.commitState) {
      case "done":
        return false;
      case "committing":
        return true;
      case "idle":
        this.commitState = "committing";
        this.run("completed").then(then, then);
        return true;
    }
  }

  /**
   * A delivery's rework turn (a merge's conflict) changes the work after its commit: the next
   * completion commits again. The proof keeps the first commit's base.
   */
  rearm(): void {
    if (this.commitState !== "done") return;
    this.firstBase ??= this.commit?.baseCommit;
    this.commitState = "idle";
  }

  /** The task ended otherwise (failed, canceled): its changes are committed after it. */
  afterEnd(state: string): void {
    if (this.commitState !== "idle") return;
    this.commitState = "committing";
    void this.run(state);
  }

  /** The diff artifact of the task's commit, if it made one. */
  diffArtifact(): Artifact | undefined {
    const c = this.commit;
    return c && diffArtifact(this.taskId, c, c.diff, this.isolation.maxDiffBytes);
  }

  /**
   * Where the task's work is (a delivery's proof of work): its commit, or with nothing changed
   * the conversation's branch at the commit it began at.
   */
  work(): { branch: string; baseCommit: string; commit: string; files: TaskCommit["files"] } {
    if (this.commit !== undefined) {
      return this.firstBase === undefined
        ? this.commit
        : { ...this.commit, baseCommit: this.firstBase };
    }
    const { key, contextId } = this.conversation;
    const at = this.record.endCommit ?? this.record.startCommit ?? "";
    return {
      branch: branchName(worktreeName(key, contextId)),
      baseCommit: at,
      commit: at,
      files: [],
    };
  }

  /** The final status's `metadata.worktree`, if the task made a commit or its commit failed. */
  metadata(): Record<string, unknown> | undefined {
    if (this.commitFailure !== undefined) return { [WORKTREE_KEY]: { error: this.commitFailure } };
    return this.commit && worktreeMetadata(this.commit);
  }

  /** The text of a failed end-of-task commit, for the completed status. */
  failure(): string | undefined {
    return this.commitFailure;
  }

  private async run(state: string): Promise<void> {
    try {
      this.commit = await this.isolation.worktrees.finish(this.conversation, this.taskId, state);
      if (this.commit !== undefined) this.record.endCommit = this.commit.commit;
      if (this.commit !== undefined) {
        this.logger.info(
          {
            branch: this.commit.branch,
            commit: this.commit.commit,
            files: this.commit.files.length,
          },
          "task: changes committed on the conversation's branch",
        );
      }
    } catch (err) {
      // The changes stay in the worktree: the conversation's next commit takes them.
      this.logger.error({ err }, "task: committing its changes failed");
      this.commitFailure = TEXT.commitFailed(err instanceof Error ? err.message : String(err));
    } finally {
      this.commitState = "done";
    }
  }
}
