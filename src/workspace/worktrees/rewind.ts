import { runGit } from "./git.js";

/**
 * A conversation's worktree going back (a rewind) or branching (a fork) at a task's commit. The
 * end-of-task commits hold everything a task changed, so a worktree between tasks is clean, and
 * resetting it to an earlier commit loses nothing once the branch's head is kept on a branch of
 * its own. Run these in the repository's queue (`WorktreeManager.serial`).
 */

/** The branch that keeps what a rewind by task `taskId` left behind. Pure. */
export const keptBranch = (branch: string, taskId: string): string =>
  `${branch}-before-${taskId.slice(0, 12)}`;

/** What a rewind did: the commit it went back to, and where the commits after it are kept. */
export interface WorktreeRewind {
  readonly resetTo: string;
  /** `refs/heads/<kept branch>`, at the commit the branch had before. */
  readonly keptRef: string;
  readonly keptCommit: string;
}

/** The commit checked out in `dir` (any folder of the worktree). */
export async function headOf(dir: string): Promise<string> {
  return (await runGit(dir, ["rev-parse", "HEAD"])).stdout.trim();
}

/**
 * The diff the worktree would go through to be as at `commit`: what it has now (uncommitted
 * changes and untracked files included, ignored ones not) against that commit, unified.
 */
export async function diffTo(dir: string, commit: string): Promise<string> {
  // Untracked files enter the diff as intent-to-add; the index is left as it was after.
  const untracked = (await runGit(dir, ["ls-files", "--others", "--exclude-standard", "-z"])).stdout
    .split("\0")
    .filter((p) => p !== "");
  if (untracked.length > 0) await runGit(dir, ["add", "--intent-to-add", "--", ...untracked]);
  try {
    const args = ["diff", "--no-ext-diff", "--no-textconv", "--no-renames", "-R", commit];
    return (await runGit(dir, args)).stdout;
  } finally {
    if (untracked.length > 0) await runGit(dir, ["reset", "--quiet", "--", ...untracked]);
  }
}

/**
 * Keeps the branch's head on `kept` (what is uncommitted committed there first), then resets the
 * worktree and its branch to `commit` and removes untracked files (ignored ones stay: the
 * server's own, the inbox).
 */
export async function rewindWorktree(
  dir: string,
  commit: string,
  kept: string,
  taskId: string,
): Promise<WorktreeRewind> {
  await runGit(dir, ["add", "--all"]);
  const staged = await runGit(dir, ["diff", "--no-ext-diff", "--cached", "--quiet"], {
    okCodes: [1],
  });
  if (staged.code === 1) {
    const message = `claude-a2a: uncommitted changes kept by the rewind of task ${taskId}`;
    await runGit(dir, ["commit", "--quiet", "--no-verify", "-m", message]);
  }
  const keptCommit = await headOf(dir);
  await runGit(dir, ["branch", "--force", kept, keptCommit]);
  await runGit(dir, ["reset", "--quiet", "--hard", commit]);
  await runGit(dir, ["clean", "--quiet", "-d", "--force"]);
  return { resetTo: commit, keptRef: `refs/heads/${kept}`, keptCommit };
}
