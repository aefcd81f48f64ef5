import type { WorktreeFileChange, WorktreeMetadata } from "../../contract/worktree.js";
import { runGit } from "./git.js";
import { commitMessage } from "./names.js";

/** A file a task's commit changed, as `git diff --name-status --no-renames` lists it. */
export type ChangedFile = WorktreeFileChange;

/**
 * What the end-of-task commit made: the branch's commit before and after, and the change (the
 * contract's `metadata.worktree` shape), with the diff itself.
 */
export interface TaskCommit extends WorktreeMetadata {
  /** `git diff <baseCommit> <commit>`: a unified diff (binary files named, not included). */
  readonly diff: string;
}

const CHANGES: Readonly<Record<string, ChangedFile["change"]>> = {
  A: "added",
  M: "modified",
  D: "deleted",
  T: "type_changed",
};

/** `git diff --name-status -z --no-renames` output → the changed files. Pure. */
export function parseNameStatus(out: string): ChangedFile[] {
  const fields = out.split("\0");
  const files: ChangedFile[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const code = (fields[i] ?? "").charAt(0);
    const path = fields[i + 1] ?? "";
    if (path === "") continue;
    files.push({ path, change: CHANGES[code] ?? "modified" });
  }
  return files;
}

/**
 * Commits everything changed in the worktree `dir` (on its branch) for task `taskId`, or does
 * nothing and returns undefined when nothing changed. What the repository ignores (its
 * `.gitignore`, the exclude file the server wrote) is never taken. Run it in the repository's
 * queue: it takes the worktree's index lock and writes the branch's ref.
 */
export async function commitTask(
  dir: string,
  branch: string,
  taskId: string,
  state: string,
): Promise<TaskCommit | undefined> {
  await runGit(dir, ["add", "--all"]);
  const staged = await runGit(dir, ["diff", "--no-ext-diff", "--cached", "--quiet"], {
    okCodes: [1],
  });
  if (staged.code === 0) return undefined;
  const baseCommit = (await runGit(dir, ["rev-parse", "HEAD"])).stdout.trim();
  await runGit(dir, ["commit", "--quiet", "--no-verify", "-m", commitMessage(taskId, state)]);
  const commit = (await runGit(dir, ["rev-parse", "HEAD"])).stdout.trim();
  const range = [baseCommit, commit];
  const names = await runGit(dir, [
    "diff",
    "--no-ext-diff",
    "--no-textconv",
    "--name-status",
    "-z",
    "--no-renames",
    ...range,
  ]);
  const diff = await runGit(dir, [
    "diff",
    "--no-ext-diff",
    "--no-textconv",
    "--no-renames",
    ...range,
  ]);
  return { branch, baseCommit, commit, files: parseNameStatus(names.stdout), diff: diff.stdout };
}
