import { readlinkSync } from "node:fs";
import { lstat, realpath, unlink, utimes } from "node:fs/promises";
import { resolve } from "node:path";

/**
 * A conversation's worktree is a folder of its name, or a link of its name to the spare folder
 * it took (spare.ts): what the manager needs to tell them apart.
 */

/** The folder `path` names: the spare folder its link points to (in `dir`), or itself. */
export function linked(dir: string, path: string): string {
  try {
    return resolve(dir, readlinkSync(path));
  } catch {
    return path;
  }
}

export async function isLink(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined))?.isSymbolicLink() === true;
}

/** Marks a worktree used now (retention reads the folder's mtime; a link's target's). */
export async function touch(path: string): Promise<void> {
  const now = new Date();
  await utimes(path, now, now).catch(() => undefined);
}

/** The real folder behind `path` (a taken spare's, through its link). */
export const folderOf = (path: string): Promise<string> => realpath(path);

export async function dropLink(path: string): Promise<void> {
  await unlink(path);
}
