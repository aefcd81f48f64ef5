import { runGit } from "../../workspace/worktrees/git.js";

/** The most untracked files whose content the diff shows (the others are only named). */
const MAX_NEW_FILES = 50;

const DIFF = ["diff", "--no-ext-diff", "--no-textconv", "--no-renames", "--no-color"];

/**
 * What the task changed in the worktree `cwd` since `baseCommit`, before its commit: the tracked
 * files' diff against that commit, then each new file the repository does not ignore, as a
 * creation. Read-only (no index written), with the server's own hardened git.
 */
export async function reviewDiff(
  cwd: string,
  baseCommit: string,
  signal: AbortSignal,
): Promise<{ readonly diff: string; readonly files: readonly string[] }> {
  const tracked = await runGit(cwd, [...DIFF, baseCommit, "--"], { signal });
  const names = await runGit(cwd, ["diff", "--name-only", "-z", "--no-renames", baseCommit, "--"], {
    signal,
  });
  const others = await runGit(cwd, ["ls-files", "--others", "--exclude-standard", "-z"], {
    signal,
  });
  const untracked = others.stdout.split("\0").filter((f) => f !== "");
  const parts = [tracked.stdout];
  for (const file of untracked.slice(0, MAX_NEW_FILES)) {
    // Exit code 1: the files differ (always, against /dev/null).
    const created = await runGit(cwd, [...DIFF, "--no-index", "--", "/dev/null", file], {
      okCodes: [1],
      signal,
    });
    parts.push(created.stdout);
  }
  const files = [...names.stdout.split("\0").filter((f) => f !== ""), ...untracked];
  return { diff: parts.filter((p) => p !== "").join(""), files };
}
