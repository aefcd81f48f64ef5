import { access, copyFile, mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { getSessionMessages, type SessionStore } from "@anthropic-ai/claude-agent-sdk";
import { childConfigDir } from "./history.js";

export interface TranscriptLocation {
  readonly cwd: string;
  /** The Claude Code child's environment; undefined: it inherits this process's. */
  readonly env?: Record<string, string | undefined> | undefined;
}

/**
 * Whether the transcript of a session can be resumed; `key` is the conversation it serves (its
 * transcript lies under the folder it runs in, which may be its own: `claude.isolation`).
 */
export type TranscriptCheck = (sessionId: string, key?: string) => Promise<boolean>;

/**
 * Whether the runtime would find this session's transcript:
 * `<configDir>/projects/<project key of cwd>/<sessionId>.jsonl`, where the config dir is the
 * child's (`CLAUDE_CONFIG_DIR`, else `HOME/.claude`). The project key is the SDK's own: the SDK's
 * transcript reader asks a store for exactly that key, and this store only looks there.
 */
export function transcriptCheck(where: TranscriptLocation): TranscriptCheck {
  return async (sessionId) => {
    const configDir = childConfigDir(where.env ?? process.env);
    if (configDir === undefined || /[\\/]/.test(sessionId)) return false;
    let found = false;
    const store: SessionStore = {
      append: () => Promise.reject(new Error("read-only")),
      load: async ({ projectKey, sessionId: id, subpath }) => {
        if (subpath !== undefined) return null;
        try {
          await access(join(configDir, "projects", projectKey, `${id}.jsonl`));
          found = true;
        } catch {
          // Not there: the runtime would not find it either.
        }
        return null;
      },
    };
    await getSessionMessages(sessionId, { dir: where.cwd, sessionStore: store }).catch(
      () => undefined,
    );
    return found;
  };
}

/** The runtime's words when `resume` names a session it cannot find. */
export const SESSION_NOT_FOUND = /No conversation found with session ID/i;

/**
 * Makes a session's transcript resumable from the folder `where.cwd` (another worktree of a
 * fork): the runtime finds a session only under its cwd's project folder, so the file is copied
 * there (under its own id) unless it is there already. False when no source file was found.
 */
export async function shareTranscript(
  where: TranscriptLocation,
  sessionId: string,
): Promise<boolean> {
  const configDir = childConfigDir(where.env ?? process.env);
  if (configDir === undefined || /[\\/]/.test(sessionId)) return false;
  let key: string | undefined;
  const store: SessionStore = {
    append: () => Promise.reject(new Error("read-only")),
    load: ({ projectKey, subpath }) => {
      if (subpath === undefined) key = projectKey;
      return Promise.resolve(null);
    },
  };
  await getSessionMessages(sessionId, { dir: where.cwd, sessionStore: store }).catch(
    () => undefined,
  );
  if (key === undefined) return false;
  const projects = join(configDir, "projects");
  const target = join(projects, key, `${sessionId}.jsonl`);
  if (
    await access(target).then(
      () => true,
      () => false,
    )
  )
    return true;
  for (const dir of await readdir(projects).catch(() => [] as string[])) {
    const source = join(projects, dir, `${sessionId}.jsonl`);
    if (
      !(await access(source).then(
        () => true,
        () => false,
      ))
    )
      continue;
    await mkdir(join(projects, key), { recursive: true });
    await copyFile(source, target);
    return true;
  }
  return false;
}
