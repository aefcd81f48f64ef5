/** Where the server lists the Claude Code processes it started, relative to the workspace. */
export const PIDS_FILE = ".claude/claude-a2a.pids.json";

/** What the server last started with: its config file's path and digest (docs/sandbox.md). */
export const CONFIG_SEEN_FILE = ".claude/claude-a2a.config-seen.json";
