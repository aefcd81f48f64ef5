import { realpath } from "node:fs/promises";
import type { Config } from "./schema.js";

/**
 * The config with the workspace directories as real paths (symlinks resolved). The Claude Code
 * runtime works in the real path of its cwd (its transcripts' folder, the paths its tools
 * report, what it calls inside), so the server compares against the same: a workspace served
 * through a symlink (macOS's /tmp and /var/folders, a symlinked checkout) gives the same
 * artifact ids, inbox paths and inside/outside decisions as its real path. A directory that
 * cannot be resolved is kept as given (loading the config already checked it exists).
 */
export async function withRealPaths(config: Config): Promise<Config> {
  const real = (dir: string) => realpath(dir).catch(() => dir);
  return {
    ...config,
    claude: { ...config.claude, cwd: await real(config.claude.cwd) },
    workspaces: await Promise.all(
      config.workspaces.map(async (w) => ({ ...w, cwd: await real(w.cwd) })),
    ),
  };
}
