import { homedir } from "node:os";
import { join } from "node:path";

export const DEFAULT_URL = "http://localhost:3008";

/** The agent's URL: `--url`, then `A2A_URL`, then the default; a trailing slash is dropped. */
export function resolveUrl(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const chosen = [flag, env.A2A_URL].find((v) => v !== undefined && v.trim() !== "");
  return (chosen ?? DEFAULT_URL).trim().replace(/\/+$/, "");
}

/** `$XDG_CONFIG_HOME/claude-a2a`, else `~/.config/claude-a2a` (an XDG path must be absolute). */
export function configDir(env: NodeJS.ProcessEnv, home: string = homedir()): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg !== undefined && xdg.startsWith("/") ? xdg : join(home, ".config");
  return join(base, "claude-a2a");
}
