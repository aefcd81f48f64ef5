import { runGit } from "../../workspace/worktrees/git.js";

/**
 * The git of a merge on approval (docs/delivery.md "Merge on approval"), run by the server with
 * its hardened git (no hook, driver or helper of the repository runs). The merge is made outside
 * the workspace's checkout (`merge-tree --write-tree`, `commit-tree`), then the base branch moves
 * with `update-ref` guarded by its old value; the checkout itself is only ever fast-forwarded,
 * and only when clean, so it is never left half-merged.
 */

/** Where a conversation's branch is fetched to in the workspace's repository while it merges. */
const MERGING_REFS = "refs/claude-a2a/merging/";

/** A fetch from a repository of ours named by its path (the server's git allows no transport). */
const LOCAL_FETCH = [
  "-c",
  "protocol.file.allow=always",
  "fetch",
  "--quiet",
  "--no-tags",
  "--no-write-fetch-head",
];

/** The commit `ref` names, or undefined when it names none. */
export async function commitOf(cwd: string, ref: string): Promise<string | undefined> {
  const r = await runGit(cwd, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], {
    okCodes: [1],
  });
  return r.code === 0 ? r.stdout.trim() : undefined;
}

/** Whether `ancestor` is `commit` or one of its ancestors. */
export async function isAncestor(cwd: string, ancestor: string, commit: string): Promise<boolean> {
  const r = await runGit(cwd, ["merge-base", "--is-ancestor", ancestor, commit], { okCodes: [1] });
  return r.code === 0;
}

/**
 * The conversation's branch into the workspace's repository (each conversation has a repository
 * of its own): fetched from the conversation's worktree `from` to a ref of ours, which `release`
 * drops. Returns the commit it fetched.
 */
export async function fetchBranch(
  workspace: string,
  from: string,
  branch: string,
): Promise<{ commit: string | undefined; release: () => Promise<void> }> {
  const top = (await runGit(from, ["rev-parse", "--show-toplevel"])).stdout.trim();
  const ref = `${MERGING_REFS}${branch}`;
  await runGit(workspace, [...LOCAL_FETCH, top, `+refs/heads/${branch}:${ref}`]);
  const release = async () => {
    await runGit(workspace, ["update-ref", "-d", ref]).catch(() => undefined);
  };
  return { commit: await commitOf(workspace, ref), release };
}

/** A merge of two commits made outside any checkout: its tree, or the paths that conflict. */
export type TreeMerge =
  | { readonly kind: "clean"; readonly tree: string }
  | { readonly kind: "conflicts"; readonly paths: readonly string[] };

/** `git merge-tree --write-tree` of `base` and `head` (git 2.38 or later): writes no ref. */
export async function mergeTree(cwd: string, base: string, head: string): Promise<TreeMerge> {
  const r = await runGit(
    cwd,
    ["merge-tree", "--write-tree", "--name-only", "--no-messages", base, head],
    { okCodes: [1] },
  );
  const [tree = "", ...paths] = r.stdout.split("\n").filter((line) => line !== "");
  return r.code === 0 ? { kind: "clean", tree } : { kind: "conflicts", paths };
}

/** Who a merge commit is authored and committed by (default: the server's identity). */
export interface MergeAuthor {
  readonly name: string;
  readonly email: string;
}

/** A merge commit of `tree` with the parents `base` then `head`; returns its id. */
export async function mergeCommit(
  cwd: string,
  tree: string,
  parents: { readonly base: string; readonly head: string },
  message: string,
  author: MergeAuthor | undefined,
): Promise<string> {
  // Command-line config beats the server's own identity (given as environment config).
  const identity =
    author === undefined
      ? []
      : ["-c", `user.name=${author.name}`, "-c", `user.email=${author.email}`];
  const args = ["commit-tree", tree, "-p", parents.base, "-p", parents.head, "-m", message];
  return (await runGit(cwd, [...identity, ...args])).stdout.trim();
}

/** Where the base branch is checked out in the workspace's repository. */
export type Checkout =
  | { readonly kind: "none" }
  /** In the workspace's own folder: moved along, when it is clean. */
  | { readonly kind: "workspace" }
  /** In another worktree of the repository: the merge would leave that one behind its branch. */
  | { readonly kind: "elsewhere"; readonly path: string };

/** Where `branch` is checked out: in the workspace (`cwd`), another worktree, or nowhere. */
export async function checkoutOf(cwd: string, branch: string): Promise<Checkout> {
  const top = (await runGit(cwd, ["rev-parse", "--show-toplevel"])).stdout.trim();
  const listing = (await runGit(cwd, ["worktree", "list", "--porcelain"])).stdout;
  for (const block of listing.split("\n\n")) {
    const lines = block.split("\n");
    const path = lines.find((l) => l.startsWith("worktree "))?.slice("worktree ".length);
    if (path === undefined || !lines.includes(`branch refs/heads/${branch}`)) continue;
    return path === top ? { kind: "workspace" } : { kind: "elsewhere", path };
  }
  return { kind: "none" };
}

/** Whether the checkout of `cwd` has changes to tracked files (staged or not). */
export async function hasLocalChanges(cwd: string): Promise<boolean> {
  const r = await runGit(cwd, ["status", "--porcelain", "--untracked-files=no"]);
  return r.stdout.trim() !== "";
}

/**
 * Moves `branch` from `from` to `to`: false when it no longer is at `from` (it moved meanwhile),
 * and then nothing changed.
 */
export async function moveBranch(
  cwd: string,
  branch: string,
  from: string,
  to: string,
  reason: string,
): Promise<boolean> {
  const r = await runGit(cwd, ["update-ref", "-m", reason, `refs/heads/${branch}`, to, from], {
    okCodes: [128],
  });
  return r.code === 0;
}

/**
 * Fast-forwards the workspace's clean checkout of its branch from `from` to `to` (files, index
 * and branch at once; git refuses, changing nothing, when an untracked file is in the way).
 * False when HEAD no longer is at `from`.
 */
export async function fastForwardCheckout(cwd: string, from: string, to: string): Promise<boolean> {
  if ((await commitOf(cwd, "HEAD")) !== from) return false;
  await runGit(cwd, ["merge", "--ff-only", "--quiet", "--no-edit", to]);
  return true;
}

/**
 * The base merged into the conversation's worktree `cwd`, for Claude to finish: conflict markers
 * left in the files, the merge under way (its commit, at the end of Claude's turn, is a merge
 * commit). Returns the paths left in conflict.
 */
export async function mergeIntoWorktree(cwd: string, base: string): Promise<string[]> {
  await runGit(cwd, ["merge", "--no-ff", "--no-commit", "--quiet", base], { okCodes: [1] });
  const r = await runGit(cwd, ["diff", "--name-only", "--diff-filter=U", "-z"]);
  return r.stdout.split("\0").filter((p) => p !== "");
}
