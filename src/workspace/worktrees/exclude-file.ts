import { mkdir, readFile, writeFile } from "node:fs/promises";
import nodePath, { join } from "node:path";
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
  const file = join(repo, "info", "exclude");
  const current = await readFile(file, "utf8").catch(() => "");
  const next = withExcludes(current, patterns);
  if (next === undefined) return;
  await mkdir(join(repo, "info"), { recursive: true });
  await writeFile(file, next);
}
