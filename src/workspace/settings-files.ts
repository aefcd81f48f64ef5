import { statSync, watch, type FSWatcher } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";

/**
 * The files Claude Code reads once, when its process starts, that a workspace's owner edits: its
 * settings, its MCP servers and its memory (CLAUDE.md), the workspace's and the user's. A process
 * started ahead (a spare) is only good while they are as they were.
 */
export function settingsFiles(cwd: string, env: Record<string, string | undefined>): string[] {
  const user = env.CLAUDE_CONFIG_DIR ?? join(env.HOME ?? homedir(), ".claude");
  return [
    join(cwd, "CLAUDE.md"),
    join(cwd, "CLAUDE.local.md"),
    join(cwd, ".mcp.json"),
    join(cwd, ".claude", "CLAUDE.md"),
    join(cwd, ".claude", "settings.json"),
    join(cwd, ".claude", "settings.local.json"),
    join(user, "CLAUDE.md"),
    join(user, "settings.json"),
  ];
}

/** The files as they are now (size and mtime, or missing), in one comparable string. */
export function fingerprintOf(files: readonly string[]): string {
  return files
    .map((file) => {
      try {
        const s = statSync(file);
        return `${s.size}:${s.mtimeMs}`;
      } catch {
        return "-";
      }
    })
    .join("|");
}

/**
 * Calls `changed` when one of `files` may have changed: a watch on each folder holding one
 * (those that exist), filtered by name, since the server's own files in `.claude/` change
 * often. Returns the stop. A folder that cannot be watched is skipped: the check when a spare is
 * taken still holds.
 */
export function watchFiles(files: readonly string[], changed: () => void): () => void {
  const byDir = new Map<string, Set<string>>();
  for (const file of files) {
    const names = byDir.get(dirname(file)) ?? new Set<string>();
    names.add(basename(file));
    byDir.set(dirname(file), names);
  }
  const watchers: FSWatcher[] = [];
  for (const [dir, names] of byDir) {
    try {
      const watcher = watch(dir, { persistent: false }, (_event, name) => {
        if (name === null || names.has(name.toString())) changed();
      });
      watcher.on("error", () => watcher.close());
      watchers.push(watcher);
    } catch {
      // Missing or unreadable.
    }
  }
  return () => {
    for (const w of watchers) w.close();
  };
}
