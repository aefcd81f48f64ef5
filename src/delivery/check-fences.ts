import { isAbsolute, join, relative, resolve, sep } from "node:path";

/**
 * What a sandboxed check may not read or write beyond bubblewrap's read-only machine: the same
 * denials the workspace's boundary gives Claude's sandboxed Bash in that worktree (the runtime's
 * config directory and its credentials, HOME under "strict", the server's files, the other
 * conversations' worktrees, the processes' temp dirs), and the conversation's own `.git` kept
 * read-only. A check runs what Claude wrote (a `check.sh` in the worktree), so it gets no more
 * than Claude's Bash. Pure: the wiring says which paths exist and what they are.
 */

export interface FencePath {
  readonly path: string;
  readonly kind: "dir" | "file";
}

export interface CheckFences {
  /** Unreadable: an empty folder, or an empty file, in their place. */
  readonly hidden: readonly FencePath[];
  /** Under a hidden path, readable again (read-only): HOME's git identity, the conversation. */
  readonly readable: readonly FencePath[];
  /** Inside the writable worktree, read-only: the conversation's `.git`. */
  readonly readOnly: readonly FencePath[];
}

/** The filesystem lists of the runtime's sandbox settings of a process in that worktree. */
export interface FenceLists {
  readonly denyRead?: readonly string[] | undefined;
  readonly allowRead?: readonly string[] | undefined;
  readonly denyWrite?: readonly string[] | undefined;
}

const within = (dir: string, path: string): boolean => {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
};

/** `~`, `~/x`, absolute; a glob or a relative path (the runtime's own forms) is left out. */
const absolute = (path: string, home: string): string | undefined => {
  if (path.includes("*")) return undefined;
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return isAbsolute(path) ? resolve(path) : undefined;
};

/**
 * The paths to fence for a check in `cwd`, from the runtime's lists: each denied read hidden,
 * each allowed read re-exposed, each denied write that lies in the writable worktree (or the
 * conversation's folder) read-only. Pure.
 */
export function fencePaths(
  lists: FenceLists,
  cwd: string,
  home: string,
): { hidden: string[]; readable: string[]; readOnly: string[] } {
  const paths = (xs: readonly string[] | undefined) => [
    ...new Set((xs ?? []).flatMap((p) => absolute(p, home) ?? [])),
  ];
  const readable = paths(lists.allowRead);
  const writable = [cwd, ...readable.filter((p) => within(p, cwd))];
  return {
    hidden: paths(lists.denyRead).filter((p) => p !== "/"),
    readable,
    readOnly: paths(lists.denyWrite).filter((p) => writable.some((w) => within(w, p))),
  };
}

/**
 * Bubblewrap's arguments for the fences, in mount order: hidden and readable paths shallowest
 * first (a deeper one wins; at the same path hidden wins), then `cwd` writable, then the
 * read-only paths inside it. Pure.
 */
export function fenceArgs(fences: CheckFences | undefined, cwd: string): string[] {
  const hide = (p: FencePath) =>
    p.kind === "dir" ? ["--tmpfs", p.path] : ["--ro-bind", "/dev/null", p.path];
  const show = (p: FencePath) => ["--ro-bind", p.path, p.path];
  const depth = (p: string) => p.split(sep).length;
  const layered = [
    ...(fences?.readable ?? []).map((p) => ({ p, order: 0, args: show(p) })),
    ...(fences?.hidden ?? []).map((p) => ({ p, order: 1, args: hide(p) })),
  ].sort((a, b) => depth(a.p.path) - depth(b.p.path) || a.order - b.order);
  return [
    ...layered.flatMap((l) => l.args),
    "--bind",
    cwd,
    cwd,
    ...(fences?.readOnly ?? []).flatMap((p) => ["--ro-bind", p.path, p.path]),
  ];
}
