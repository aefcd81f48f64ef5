import { access, copyFile, mkdir, readdir, realpath } from "node:fs/promises";
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

/** The SDK's test of a session id (`getSessionMessages` answers nothing for any other). */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A session id no transcript has: asking for it shows which project key the SDK reads. */
const PROBE_ID = "00000000-0000-4000-8000-000000000000";
/** Folders whose project key is kept. */
const MAX_FOLDERS = 256;

/** Whether `path` is there (`access`, or `realpath` to follow it to a real folder). */
const isThere = (path: string, probe: (p: string) => Promise<unknown> = access): Promise<boolean> =>
  probe(path).then(
    () => true,
    () => false,
  );

/** The project key the SDK's transcript reader uses for `cwd` (its own computation). */
export async function projectKeyOf(cwd: string): Promise<string | undefined> {
  let key: string | undefined;
  const store: SessionStore = {
    append: () => Promise.reject(new Error("read-only")),
    load: ({ projectKey, subpath }) => {
      if (subpath === undefined) key = projectKey;
      return Promise.resolve(null);
    },
  };
  await getSessionMessages(PROBE_ID, { dir: cwd, sessionStore: store }).catch(() => undefined);
  return key;
}

/**
 * Whether the runtime would find this session's transcript:
 * `<configDir>/projects/<project key of cwd>/<sessionId>.jsonl`, where the config dir is the
 * child's (`CLAUDE_CONFIG_DIR`, else `HOME/.claude`). The project key is the SDK's own, asked of
 * the SDK once per folder and kept (the startup sweep checks every mapped conversation: asking
 * each time made a check cost 50–110 µs of CPU, now about 30); a folder not there yet is asked again
 * next time, since the SDK's key follows the folder's real path.
 */
export function transcriptChecks(
  env: Record<string, string | undefined> | undefined,
  /** Where a folder's key comes from: the SDK (a seam, so a test can count the asks). */
  askKey: (cwd: string) => Promise<string | undefined> = projectKeyOf,
): (cwd: string) => TranscriptCheck {
  // By folder; each asked once even when a batch of checks of one folder starts together.
  const keys = new Map<string, Promise<string | undefined>>();
  const keyOf = (cwd: string): Promise<string | undefined> => {
    const known = keys.get(cwd);
    if (known !== undefined) return known;
    const asked = Promise.all([isThere(cwd, realpath), askKey(cwd)]).then(([exists, key]) => {
      // The key follows the folder's real path: one not there yet is asked again next time.
      if ((!exists || key === undefined) && keys.get(cwd) === asked) keys.delete(cwd);
      return key;
    });
    keys.set(cwd, asked);
    // A folder per conversation under worktree isolation: keep the latest few hundred.
    if (keys.size > MAX_FOLDERS) keys.delete(keys.keys().next().value as string);
    return asked;
  };
  return (cwd) => async (sessionId) => {
    const configDir = childConfigDir(env ?? process.env);
    if (configDir === undefined || !SESSION_ID.test(sessionId)) return false;
    const key = await keyOf(cwd);
    if (key === undefined) return false;
    return isThere(join(configDir, "projects", key, `${sessionId}.jsonl`));
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
  if (configDir === undefined || !SESSION_ID.test(sessionId)) return false;
  const key = await projectKeyOf(where.cwd);
  if (key === undefined) return false;
  const projects = join(configDir, "projects");
  const target = join(projects, key, `${sessionId}.jsonl`);
  if (await isThere(target)) return true;
  for (const dir of await readdir(projects).catch(() => [] as string[])) {
    const source = join(projects, dir, `${sessionId}.jsonl`);
    if (!(await isThere(source))) continue;
    await mkdir(join(projects, key), { recursive: true });
    await copyFile(source, target);
    return true;
  }
  return false;
}
