import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  getSessionMessages,
  type SessionStore,
  type SessionStoreEntry,
} from "@anthropic-ai/claude-agent-sdk";
import type { HistoryMessage } from "./timeline.js";

export interface HistoryLocation {
  cwd: string;
  /** The environment the Claude Code child runs with (it decides where transcripts live). */
  env?: Record<string, string | undefined>;
}

export type HistoryLoader = (
  sessionId: string,
  where: HistoryLocation,
) => Promise<HistoryMessage[]>;

/**
 * `getSessionMessages` has no config-dir option: it reads this process's CLAUDE_CONFIG_DIR (or
 * ~/.claude). When the child runs with its own environment, its transcripts are read through a
 * read-only store over the child's config dir instead.
 */
export const defaultHistoryLoader: HistoryLoader = async (sessionId, { cwd, env }) => {
  const configDir = childConfigDir(env);
  return getSessionMessages(
    sessionId,
    configDir === undefined
      ? { dir: cwd }
      : { dir: cwd, sessionStore: transcriptDirStore(configDir) },
  );
};

/** Where the child keeps its transcripts, when its environment says so. */
export function childConfigDir(env: Record<string, string | undefined> | undefined) {
  if (env === undefined) return undefined;
  const explicit = env.CLAUDE_CONFIG_DIR?.trim();
  if (explicit) return explicit;
  const home = env.HOME?.trim();
  return home ? join(home, ".claude") : undefined;
}

/** Reads `<configDir>/projects/<project>/<sessionId>.jsonl`; never writes. */
export function transcriptDirStore(configDir: string): SessionStore {
  const projects = join(configDir, "projects");
  return {
    append: () => Promise.reject(new Error("transcript store is read-only")),
    load: async ({ projectKey, sessionId, subpath }) => {
      if (subpath !== undefined || /[\\/]/.test(sessionId)) return null;
      const file = `${sessionId}.jsonl`;
      const candidates = [join(projects, projectKey, file)];
      try {
        // The project directory name is the runtime's slug of cwd; fall back to a scan.
        for (const dir of await readdir(projects)) candidates.push(join(projects, dir, file));
      } catch {
        return null;
      }
      for (const path of candidates) {
        let text: string;
        try {
          text = await readFile(path, "utf8");
        } catch {
          continue;
        }
        return parseTranscript(text);
      }
      return null;
    },
  };
}

function parseTranscript(text: string): SessionStoreEntry[] {
  const entries: SessionStoreEntry[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === "object" && value !== null && "type" in value) {
        entries.push(value as SessionStoreEntry);
      }
    } catch {
      // A torn last line (the runtime was writing) is skipped, not fatal.
    }
  }
  return entries;
}
