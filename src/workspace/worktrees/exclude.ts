import nodePath, { isAbsolute, join, relative, resolve } from "node:path";
import { readTextInside, writeFileInside } from "../../common/safe-files.js";
import { GitError, runGit } from "./git.js";
import { excludePatterns, resolveServerPath, withExcludes } from "./names.js";

/**
 * `claude.isolation: "shared"`: the server's own files in a workspace that is a git checkout
 * (store, session map, pid file, inbox) go to the repository's `.git/info/exclude`, as with
 * worktrees, so that serving a repository never changes its `git status`. The exclude file is
 * local to the clone (never committed, never pushed) and hides untracked files only. Not a git
 * repository, or no git: nothing to do. Returns the patterns added.
 */
export async function excludeServerFiles(
  cwd: string,
  serverPaths: readonly string[],
): Promise<string[]> {
  let out: string;
  try {
    out = (await runGit(cwd, ["rev-parse", "--show-toplevel", "--git-common-dir"])).stdout;
  } catch (err) {
    if (err instanceof GitError || (err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const [top = "", common = ""] = out.split("\n");
  if (top === "" || common === "") return [];
  const patterns = excludePatterns(
    top,
    serverPaths.map((p) => resolveServerPath(cwd, p)),
    nodePath,
  );
  // `.git/info` is writable from a sandboxed command: read and written without following a
  // link, from the workspace when the git folder lies in it (a link at `.git` is refused too).
  const gitDir = resolve(cwd, common);
  const rel = relative(cwd, gitDir);
  const inside = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  const [root, file] = inside ? [cwd, join(rel, "info", "exclude")] : [gitDir, "info/exclude"];
  const current = await readTextInside(root, file);
  const next = withExcludes(current, patterns, "shared");
  if (next === undefined) return [];
  await writeFileInside(root, file, next);
  return patterns.filter((p) => !current.split("\n").includes(p));
}
