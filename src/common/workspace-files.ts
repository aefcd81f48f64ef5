/** Where the server lists the Claude Code processes it started, relative to the workspace. */
export const PIDS_FILE = ".claude/claude-a2a.pids.json";
