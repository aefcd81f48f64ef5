import { readdir, readFile, stat } from "node:fs/promises";
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
  return {
    append: () => Promise.reject(new Error("transcript store is read-only")),
    load: async ({ projectKey, sessionId, subpath }) => {
      if (subpath !== undefined) return null;
      const path = await findTranscript(configDir, sessionId, projectKey);
      if (path === undefined) return null;
      try {
        return parseTranscript(await readFile(path, "utf8"));
      } catch {
        return null;
      }
    },
  };
}

/**
 * The path of a session's transcript under `configDir`: in the project folder named, else the
 * first project folder holding it (the folder name is the runtime's slug of cwd); undefined
 * when there is none.
 */
export async function findTranscript(
  configDir: string,
  sessionId: string,
  projectKey = "",
): Promise<string | undefined> {
  if (/[\\/]/.test(sessionId)) return undefined;
  const projects = join(configDir, "projects");
  const file = `${sessionId}.jsonl`;
  const candidates = [join(projects, projectKey, file)];
  try {
    for (const dir of await readdir(projects)) candidates.push(join(projects, dir, file));
  } catch {
    return undefined;
  }
  for (const path of candidates) {
    if (await isFile(path)) return path;
  }
  return undefined;
}

const isFile = (path: string): Promise<boolean> =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  );

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
