import { realpath } from "node:fs/promises";
import { runGit } from "../workspace/worktrees/git.js";

/**
 * The repository's shared git metadata: its common git directory, which a sandbox that is on
 * keeps read-only (`filesystem.denyWrite`). The runtime itself masks only `.git/hooks` and
 * `.git/config`; the rest (refs, `packed-refs`, `HEAD`, objects, each worktree's admin folder)
 * would be writable, under "shared" isolation because `.git` is in the working directory, under
 * "worktree" because the runtime lets a worktree's git write its common directory (checked:
 * test/e2e/hostile-git.test.ts fails without this). A conversation that
 * moves a ref could choose what the server commits on, or plant runtime settings for the next
 * conversation to run outside the sandbox (DESIGN.md decisions 22 and 23). Only the server moves
 * refs: a conversation's branch gets commits from the server's end-of-task commit.
 */

/**
 * The common git directory of the repository `cwd` is in, absolute and real (what bubblewrap
 * mounts); none when `cwd` is no repository or git is missing. Read once, at a workspace's
 * startup.
 */
export async function gitMetadata(cwd: string): Promise<string[]> {
  const out = await runGit(cwd, ["rev-parse", "--path-format=absolute", "--git-common-dir"]).catch(
    () => undefined,
  );
  const dir = out?.stdout.trim() ?? "";
  if (dir === "") return [];
  return [await realpath(dir).catch(() => dir)];
}
