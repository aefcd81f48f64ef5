/**
 * A filesystem that runs out of room, for the storage-fault tests: a 4 MB tmpfs in a temp dir
 * (root only: CI and this machine run as root), filled to its last byte on demand.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Mounts a 4 MB tmpfs in a new temp dir; undefined where mounting fails (not root). */
export async function smallFilesystem(prefix: string): Promise<string | undefined> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", dir], { stdio: "ignore" });
    return dir;
  } catch {
    await rm(dir, { recursive: true, force: true });
    return undefined;
  }
}

/** Unmounts and removes what `smallFilesystem` made (nothing when it made nothing). */
export async function removeSmallFilesystem(dir: string | undefined): Promise<void> {
  if (dir === undefined) return;
  execFileSync("umount", [dir]);
  await rm(dir, { recursive: true, force: true });
}

/** Fills the filesystem holding `file`, through it, until it has no byte left. */
export async function fill(file: string): Promise<void> {
  const handle = await open(file, "w");
  try {
    for (let size = 64 * 1024; size >= 1; size = Math.floor(size / 2)) {
      try {
        for (;;) await handle.write(Buffer.alloc(size, 1));
      } catch {
        // ENOSPC at this size: the next size down takes what is left.
      }
    }
  } finally {
    await handle.close();
  }
}
