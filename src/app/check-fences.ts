import { realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { homedir } from "node:os";
import { fencePaths, type CheckFences, type FencePath } from "../delivery/check-fences.js";
import type { WorkspaceBoundary } from "../sandbox/workspace-boundary.js";

/** The path as it is on disk (bubblewrap mounts on real paths), with its kind; none if absent. */
async function onDisk(path: string): Promise<FencePath[]> {
  try {
    const real = await realpath(path);
    return [{ path: real, kind: (await stat(real)).isDirectory() ? "dir" : "file" }];
  } catch {
    return [];
  }
}

const existing = async (paths: readonly string[]) => (await Promise.all(paths.map(onDisk))).flat();

/**
 * The fences of a check in `cwd` (docs/delivery.md, "Where the checks run"): what the boundary
 * denies Claude's sandboxed Bash there, as the paths that exist now.
 */
export async function checkFences(
  boundary: Pick<WorkspaceBoundary, "sandboxFor" | "tmpRoot">,
  cwd: string,
  home: string | undefined,
): Promise<CheckFences> {
  // A temp dir of no process: the check has a private /tmp of its own.
  const fs = boundary.sandboxFor(cwd, join(boundary.tmpRoot, "none")).filesystem ?? {};
  const paths = fencePaths(fs, cwd, home ?? homedir());
  return {
    hidden: await existing(paths.hidden),
    readable: await existing(paths.readable),
    readOnly: await existing(paths.readOnly),
  };
}
