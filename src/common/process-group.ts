import type { ChildProcess } from "node:child_process";

/**
 * Kills a child spawned with `detached: true` and everything it started (its process group):
 * a check's shell and its commands, `git push` and its `git-remote-http`, which holds the pipes
 * too, so killing the child alone would leave its output open. Nothing when it is already gone.
 */
export function killProcessGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}
