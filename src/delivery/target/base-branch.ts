import { runGit } from "../../workspace/worktrees/git.js";

/**
 * The branch checked out in the workspace (`git symbolic-ref`), read once when the server starts:
 * where a pull request goes when `claude.delivery.baseBranch` is unset. Undefined on a detached
 * HEAD, or when git cannot say.
 */
export async function checkedOutBranch(cwd: string): Promise<string | undefined> {
  try {
    const out = await runGit(cwd, ["symbolic-ref", "--quiet", "--short", "HEAD"], {
      okCodes: [1],
    });
    const branch = out.stdout.trim();
    return out.code === 0 && branch !== "" ? branch : undefined;
  } catch {
    return undefined;
  }
}
