import { createHash } from "node:crypto";
import { resolve, type PlatformPath } from "node:path";

/**
 * Names of a conversation's worktree and branch, and the lines the repository's exclude file
 * gets: pure, so a table test holds them.
 */

/** Every branch of ours lives under this prefix: `git branch --list 'claude-a2a/*'`. */
export const BRANCH_PREFIX = "claude-a2a/";

/** Most characters of the context id a name keeps (the hash keeps it unique). */
const MAX_READABLE = 48;

/**
 * The readable part of a name: the context id, with everything a ref or a path segment may
 * not hold (git check-ref-format: control characters, space, `~^:?*[\`, `..`, `@{`, a leading
 * `.` or `-`, a trailing `.` or `.lock`) turned into `-`. Pure.
 */
export function readablePart(contextId: string): string {
  const cleaned = contextId
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/^[.-]+/, "")
    .slice(0, MAX_READABLE)
    .replace(/(\.lock)+$/i, "")
    .replace(/[.-]+$/, "");
  return cleaned === "" ? "context" : cleaned;
}

/**
 * The conversation's name: its context id made safe, and 10 hex digits of a hash of the whole
 * conversation key, so two callers' contexts of one id (and two ids that clean up alike) never
 * share a worktree. The same conversation always gets the same name: after a restart, and after
 * retention removed its worktree, it finds its branch again. Pure.
 */
export function worktreeName(conversationKey: string, contextId: string): string {
  const hash = createHash("sha256").update(conversationKey).digest("hex").slice(0, 10);
  return `${readablePart(contextId)}-${hash}`;
}

/** The conversation's branch. Pure. */
export const branchName = (name: string): string => `${BRANCH_PREFIX}${name}`;

/** The server's commit message for a task. Pure. */
export function commitMessage(taskId: string, state: string): string {
  const ended = state === "completed" ? "" : ` (${state})`;
  return `claude-a2a: task ${taskId}${ended}\n\nWhat the task changed, committed by claude-a2a when it ended.\n`;
}

/** Marks the block this server owns in `.git/info/exclude`. */
/** Which `claude.isolation` wrote an exclude block: its heading names it. */
export type ExcludeMode = "worktree" | "shared";

/** The heading of the server's block in `.git/info/exclude`, for the mode that wrote it. Pure. */
export const excludeMarker = (mode: ExcludeMode): string =>
  `# claude-a2a (claude.isolation: ${mode})`;

export const EXCLUDE_MARKER = excludeMarker("worktree");

/**
 * The exclude file with the patterns the server needs: its worktrees folder and its own files in
 * the workspace (inbox, store, session map), so the checkout's `git status` does not change and a
 * task's commit never takes them. Patterns already there are not repeated; undefined when
 * nothing is missing. `patterns` are anchored (`/…`) by the caller; the block's heading names
 * the `mode` that adds them (a file served both ways gets a heading of each). Pure.
 */
export function withExcludes(
  current: string,
  patterns: readonly string[],
  mode: ExcludeMode = "worktree",
): string | undefined {
  const have = new Set(current.split("\n").map((line) => line.trim()));
  const missing = patterns.filter((p) => !have.has(p));
  if (missing.length === 0) return undefined;
  const head = current === "" || current.endsWith("\n") ? current : `${current}\n`;
  const heading = excludeMarker(mode);
  const marker = have.has(heading) ? [] : [heading];
  return `${head}${[...marker, ...missing].join("\n")}\n`;
}

/**
 * An exclude pattern for a path relative to the repository's top (`/` separators), anchored so
 * it matches there only; `dir` adds the trailing `/`. Glob characters are escaped. Pure.
 */
export function anchoredPattern(relPath: string, dir: boolean): string {
  const escaped = relPath.replace(/[*?[\]\\!#]/g, (c) => `\\${c}`);
  return `/${escaped}${dir ? "/" : ""}`;
}

/** The path functions of the platform (`node:path`), injected so a table test can pass `posix`. */
export type PathOps = Pick<PlatformPath, "relative" | "isAbsolute" | "sep">;

/**
 * The exclude patterns of absolute paths, for the repository whose top is `top`: a path ending
 * in `/` is a folder, one ending in `*` every file whose name starts so (a file and its `-wal`,
 * `.tmp`, `.corrupt-…` siblings). Paths outside the repository are left out. Pure.
 */
export function excludePatterns(
  top: string,
  absolutePaths: readonly string[],
  path: PathOps,
): string[] {
  const patterns: string[] = [];
  for (const abs of absolutePaths) {
    const dir = abs.endsWith("/");
    const prefix = abs.endsWith("*");
    const rel = path.relative(top, dir || prefix ? abs.slice(0, -1) : abs);
    if (rel === "" || rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel))
      continue;
    const pattern = anchoredPattern(rel.split(path.sep).join("/"), dir);
    patterns.push(prefix ? `${pattern}*` : pattern);
  }
  return patterns;
}

/** A server path (`dir/`, `prefix*` or a file) resolved against `cwd`, its marker kept. Pure. */
export function resolveServerPath(cwd: string, path: string): string {
  const tail = path.endsWith("/") ? "/" : path.endsWith("*") ? "*" : "";
  return `${resolve(cwd, tail === "" ? path : path.slice(0, -1))}${tail}`;
}
