/**
 * A filesystem that runs out of room, for the storage-fault tests: a 4 MB tmpfs in a temp dir
 * (root only: CI and this machine run as root), filled to its last byte on demand.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { startA2AHarness, type A2AHarness, type HarnessOptions } from "./in-process.js";
import { testScope } from "./scope.js";

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

/**
 * A small filesystem for the tests of this file: call at collection (top level); unmounted after
 * the file's last test. Undefined where it cannot be mounted (`it.skipIf(dir === undefined)`).
 */
export async function smallFilesystemForFile(prefix: string): Promise<string | undefined> {
  const dir = await smallFilesystem(prefix);
  afterAll(() => removeSmallFilesystem(dir));
  return dir;
}

/**
 * `a2a(o)` with its SQLite store in `dir`, closed when the test ends; a close that fails (the
 * filesystem may still be full) does not fail the test: what it asserts came before.
 */
export async function a2aStoringIn(dir: string, o: HarnessOptions = {}): Promise<A2AHarness> {
  const h = await startA2AHarness({
    ...o,
    config: { ...o.config, store: { type: "sqlite", path: join(dir, "tasks.db"), retainDays: 30 } },
  });
  testScope().defer(() => h.close().catch(() => undefined));
  return h;
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
