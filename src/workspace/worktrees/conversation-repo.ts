import { access, mkdir, rename } from "node:fs/promises";
import { dirname, join } from "node:path";
import { readTextInside, writeFileInside } from "../../common/safe-files.js";
import { runGit } from "./git.js";

/**
 * A conversation's own repository (docs/workspaces.md, "One repository per conversation"): its
 * worktree folder holds a `.git` of its own, which borrows the workspace's objects read-only
 * (`objects/info/alternates`) and keeps its own objects, refs and index. So no conversation's
 * commit enters a store another conversation can read, and no conversation shares a ref, a
 * `packed-refs` or an index with another: the workspace's repository gets a conversation's
 * branch only when the operator asks (`publish`), or at once for the anonymous caller, the only
 * caller of a server without authentication. The sandbox keeps each `.git` read-only to its own
 * conversation (workspace-boundary.ts).
 */

/** The workspace's refs that keep each base commit (and so what the conversations borrow). */
export const BASE_REFS = "refs/claude-a2a/bases/";

/** Whether `folder` has a repository (or, from an earlier version, a worktree's `.git` file). */
export const hasGit = (folder: string): Promise<boolean> => exists(join(folder, ".git"));

/** Where retention keeps the repository of a conversation whose worktree it removed. */
export const KEPT_DIR = ".claude-a2a-kept";

/** The kept repository of the conversation `name` in the worktrees folder `dir`. Pure. */
export const keptRepository = (dir: string, name: string): string =>
  join(dir, KEPT_DIR, `${name}.git`);

/** What a new repository borrows from the workspace's. */
export interface RepositorySource {
  /** The workspace's common git dir, absolute: its `objects` are borrowed, read-only. */
  readonly common: string;
}

/**
 * A fetch from a repository of ours named by its path. The server's git allows no transport
 * (git-settings.ts); a path is the `file` one, and no remote's config (its `uploadpack`
 * program) is read for it.
 */
const LOCAL_FETCH = [
  "-c",
  "protocol.file.allow=always",
  "fetch",
  "--quiet",
  "--no-tags",
  "--no-write-fetch-head",
];

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * A new repository in `folder` (made if missing) that reads the workspace's objects: no hooks
 * or samples (an empty template), the workspace's local excludes (the server's own files among
 * them), and nothing checked out yet.
 */
export async function initRepository(folder: string, source: RepositorySource): Promise<void> {
  await mkdir(folder, { recursive: true });
  await runGit(folder, ["init", "--quiet", "--template=", "."]);
  await writeFileInside(
    folder,
    ".git/objects/info/alternates",
    `${join(source.common, "objects")}\n`,
  );
  const exclude = await readTextInside(source.common, "info/exclude").catch(() => "");
  await writeFileInside(folder, ".git/info/exclude", exclude);
}

/** Checks out `commit` in a new repository: on the new branch `branch`, or detached. */
export async function checkOut(folder: string, commit: string, branch?: string): Promise<void> {
  const to = branch === undefined ? ["--detach", commit] : ["-b", branch, commit];
  await runGit(folder, ["checkout", "--quiet", ...to]);
}

/** Whether `commit` can be read in the repository of `folder` (its own objects or borrowed). */
export async function hasCommit(folder: string, commit: string): Promise<boolean> {
  const r = await runGit(folder, ["cat-file", "-e", `${commit}^{commit}`], { okCodes: [1, 128] });
  return r.code === 0;
}

/**
 * Fetches `commit` (and what it needs) from another conversation's repository `from` (a fork
 * starts from a commit of its source): objects only, no ref is written in `folder`.
 */
export async function fetchCommit(folder: string, from: string, commit: string): Promise<void> {
  await runGit(folder, [...LOCAL_FETCH, from, commit]);
}

/**
 * Whether the repository of `folder` holds work the workspace's `head` lacks: a commit on one
 * of its branches that `head` does not contain (what retention keeps).
 */
export async function holdsOwnWork(folder: string, head: string): Promise<boolean> {
  const r = await runGit(folder, ["rev-list", "--count", "--branches", "--not", head]);
  return Number(r.stdout.trim()) > 0;
}

/** Retention: the repository of `folder` moved to `kept`, so the folder can go. */
export async function keepRepository(folder: string, kept: string): Promise<void> {
  await mkdir(dirname(kept), { recursive: true });
  await rename(join(folder, ".git"), kept);
}

/**
 * The conversation goes on after retention: its kept repository back in `folder`, and its
 * branch's files checked out again.
 */
export async function restoreRepository(kept: string, folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  await rename(kept, join(folder, ".git"));
  await runGit(folder, ["reset", "--quiet", "--hard"]);
}

/** The repository of a conversation: in its folder, else kept by retention, else none. */
export async function repositoryOf(folder: string, kept: string): Promise<string | undefined> {
  if (await exists(join(folder, ".git"))) return folder;
  if (await exists(kept)) return kept;
  return undefined;
}

/**
 * The workspace's repository (`workspace`: a folder of it) gets the branches of the conversation
 * whose repository is `repository`: its branch `branch`, and what its rewinds kept
 * (`<branch>-before-…`), forced (a rewind moves the branch back). Nothing else is read from it.
 */
export async function publish(
  workspace: string,
  repository: string,
  branch: string,
): Promise<void> {
  await runGit(workspace, [
    ...LOCAL_FETCH,
    repository,
    `+refs/heads/${branch}:refs/heads/${branch}`,
    `+refs/heads/${branch}-before-*:refs/heads/${branch}-before-*`,
  ]);
}
