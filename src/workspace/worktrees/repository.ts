import { access } from "node:fs/promises";
import { GitError, runGit } from "./git.js";
import { includedFiles, INCLUDE_KEYS } from "./git-settings.js";

/** Whether a workspace can have worktrees: in a git repository with a commit, git installed. */

/** Why `claude.isolation: "worktree"` cannot work in this workspace: startup stops with it. */
export class WorktreeSetupError extends Error {}

/** The startup errors, worded once (docs/workspaces.md quotes them). */
export const WORKTREE_SETUP = {
  gitMissing: (cwd: string) =>
    `claude.isolation is "worktree", but git was not found on PATH (workspace ${cwd}): install git or set claude.isolation to "shared"`,
  notARepository: (cwd: string) =>
    `claude.isolation is "worktree", but the workspace ${cwd} is not in a git repository: run git init there (and commit) or set claude.isolation to "shared"`,
  noCommit: (cwd: string) =>
    `claude.isolation is "worktree", but the git repository of the workspace ${cwd} has no commit yet: commit once, so worktrees have a commit to start from`,
} as const;

/**
 * The workspace's repository: its top, the workspace's path in it, its common git dir, and the
 * commit its HEAD is at (a commit id: what new worktrees start from, pinned at startup); throws
 * `WorktreeSetupError` when it is not in a repository with a commit, or git is missing.
 * Read-only (`claude-a2a --check` asks it too).
 */
export async function inspect(
  cwd: string,
): Promise<{ top: string; prefix: string; common: string; head: string }> {
  let out: string;
  try {
    out = (await runGit(cwd, ["rev-parse", "--show-toplevel", "--show-prefix", "--git-common-dir"]))
      .stdout;
  } catch (err) {
    if (err instanceof GitError) throw new WorktreeSetupError(WORKTREE_SETUP.notARepository(cwd));
    if ((err as NodeJS.ErrnoException).code === "ENOENT") {
      // execFile says ENOENT for a missing program and for a missing cwd alike.
      const cwdExists = await access(cwd).then(
        () => true,
        () => false,
      );
      if (cwdExists) throw new WorktreeSetupError(WORKTREE_SETUP.gitMissing(cwd));
    }
    throw err;
  }
  const [top = "", prefix = "", common = ""] = out.split("\n");
  const head = await runGit(cwd, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], {
    okCodes: [1],
  });
  if (head.code !== 0) throw new WorktreeSetupError(WORKTREE_SETUP.noCommit(cwd));
  return { top, prefix, common, head: head.stdout.trim() };
}

/**
 * The files the repository's own config includes (`include.path`, `includeIf.*.path`), read
 * without following them; none when it is not a repository. The server's git follows them (it
 * cannot turn includes off), so startup warns about them: see git-settings.ts.
 */
export async function configIncludes(cwd: string): Promise<string[]> {
  const listing = await runGit(
    cwd,
    ["config", "--null", "--no-includes", "--get-regexp", INCLUDE_KEYS],
    {
      okCodes: [1],
    },
  ).catch(() => undefined);
  return includedFiles(listing?.stdout ?? "");
}
