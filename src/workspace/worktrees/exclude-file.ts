import nodePath from "node:path";
import { readTextInside, writeFileInside } from "../../common/safe-files.js";
import { excludePatterns, resolveServerPath, withExcludes } from "./names.js";

/**
 * Adds the worktrees folder `dir` (absolute) and the server's files (`serverPaths`, relative to
 * the workspace `cwd`, a folder with a trailing `/`) to the repository's `info/exclude`, so
 * `git status` of the served checkout stays clean; `top` is the checkout's top folder. Writes
 * only when something is new.
 */
export async function excludeServerFiles(
  repo: string,
  top: string,
  dir: string,
  o: { readonly cwd: string; readonly serverPaths: readonly string[] },
): Promise<void> {
  const patterns = excludePatterns(
    top,
    [`${dir}/`, ...o.serverPaths.map((p) => resolveServerPath(o.cwd, p))],
    nodePath,
  );
  // Never through a link at `info` or `info/exclude` (common/safe-files.ts).
  const current = await readTextInside(repo, "info/exclude");
  const next = withExcludes(current, patterns, "worktree");
  if (next === undefined) return;
  await writeFileInside(repo, "info/exclude", next);
}
