/**
 * Big workspaces for the scale scenario, written the way a long-running server leaves them: the
 * conversation map in its seed-format JSON file (`.claude/claude-a2a.sessions.json`, which a
 * server that keeps the map in its store imports at startup) and, for the resumable entries, a
 * transcript in the runtime's config dir. Transcripts are copies of a real one the runtime wrote,
 * its turn repeated to the length wanted, ids renumbered.
 */
import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { DEFAULT_SQLITE_PATH } from "../src/config/schema.js";
import { SESSIONS_TABLE } from "../src/store/session-rows.js";

const SESSIONS_FILE = join(".claude", "claude-a2a.sessions.json");

/** One real conversation's record: what every seeded one is made from. */
export interface Template {
  /** The conversation key's owner (the caller the bench's client is). */
  readonly owner: string;
  /** Its transcript's lines, and the workspace they name (replaced by the seeded one's). */
  readonly lines: readonly string[];
  readonly cwd: string;
}

/** The runtime's project folder of a working directory. */
export const projectSlug = (cwd: string): string => cwd.replace(/[^a-zA-Z0-9]/g, "-");

/** Reads the template from a workspace where one conversation has run one turn. */
export async function readTemplate(cwd: string, configDir: string): Promise<Template> {
  const [key, entry] = (await mappedConversations(cwd))[0] ?? [];
  if (key === undefined || entry === undefined) throw new Error("scale: no conversation mapped");
  const [owner] = JSON.parse(key) as [string, string];
  const projects = join(configDir, "projects");
  for (const dir of await readdir(projects)) {
    try {
      const text = await readFile(join(projects, dir, `${entry.sessionId}.jsonl`), "utf8");
      return { owner, cwd, lines: text.split("\n").filter((l) => l.trim() !== "") };
    } catch {
      // Not in this project folder.
    }
  }
  throw new Error(`scale: no transcript of ${entry.sessionId}`);
}

/**
 * The conversations a server has mapped: from its store's table (SQLite, where the map lives
 * since issue 52), or from the map file an earlier build (`BENCH_BEFORE`) writes.
 */
async function mappedConversations(cwd: string): Promise<[string, { sessionId: string }][]> {
  const file = join(cwd, DEFAULT_SQLITE_PATH);
  const fromStore = await stat(file).then(
    () => {
      const db = new BetterSqlite3(file, { readonly: true });
      try {
        const rows = db.prepare(`SELECT conversation, session_id FROM ${SESSIONS_TABLE}`).all() as {
          conversation: string;
          session_id: string;
        }[];
        return rows.map((r): [string, { sessionId: string }] => [
          r.conversation,
          { sessionId: r.session_id },
        ]);
      } catch {
        return []; // an earlier build's store: no such table
      } finally {
        db.close();
      }
    },
    () => [],
  );
  if (fromStore.length > 0) return fromStore;
  const map = JSON.parse(await readFile(join(cwd, SESSIONS_FILE), "utf8")) as {
    sessions: Record<string, { sessionId: string }>;
  };
  return Object.entries(map.sessions);
}

/**
 * The template's transcript for `sessionId` in `cwd`, its turn repeated `turns` times: every
 * copy's uuids and message ids renumbered, each copy's first entry chained to the one before.
 */
export function transcriptOf(t: Template, sessionId: string, cwd: string, turns: number): string {
  const entries = t.lines.map(
    (l) => JSON.parse(l.split(t.cwd).join(cwd)) as Record<string, unknown>,
  );
  const out: string[] = [];
  let last: string | null = null;
  for (let turn = 0; turn < turns; turn++) {
    const ids = new Map<string, string>();
    const renamed = (id: unknown) => {
      if (typeof id !== "string") return id;
      const known = ids.get(id);
      if (known !== undefined) return known;
      const fresh = randomUUID();
      ids.set(id, fresh);
      return fresh;
    };
    for (const e of entries) {
      const copy: Record<string, unknown> = { ...e, sessionId };
      if (typeof e.uuid === "string") {
        copy.uuid = renamed(e.uuid);
        copy.parentUuid =
          e.parentUuid === null || e.parentUuid === undefined ? last : renamed(e.parentUuid);
        last = copy.uuid as string;
      }
      if (typeof e.leafUuid === "string") copy.leafUuid = renamed(e.leafUuid);
      const message = e.message as Record<string, unknown> | undefined;
      if (message !== undefined && typeof message.id === "string") {
        copy.message = { ...message, id: `${message.id}_${turn}` };
      }
      out.push(JSON.stringify(copy));
    }
  }
  return `${out.join("\n")}\n`;
}

export interface Seed {
  /** Conversations with a transcript (resumable), each `turns` long. */
  readonly resumable: number;
  /** Conversations whose transcript is gone. */
  readonly stale: number;
  readonly turns: number;
}

/** The resumable conversations seeded: their context ids (the bench's client can continue them). */
export interface Seeded {
  readonly contexts: readonly string[];
  /** Their session ids, in the same order. */
  readonly sessionIds: readonly string[];
}

/** Removes these sessions' transcripts (a cleaned `~/.claude`): their mappings go stale. */
export async function dropTranscripts(
  cwd: string,
  configDir: string,
  sessionIds: readonly string[],
): Promise<void> {
  const project = join(configDir, "projects", projectSlug(cwd));
  for (const id of sessionIds) await rm(join(project, `${id}.jsonl`), { force: true });
}

/** Writes the map and the transcripts into a workspace. */
export async function seedWorkspace(
  t: Template,
  cwd: string,
  configDir: string,
  seed: Seed,
): Promise<Seeded> {
  const project = join(configDir, "projects", projectSlug(cwd));
  await mkdir(project, { recursive: true });
  await mkdir(join(cwd, ".claude"), { recursive: true });
  const sessions: Record<string, { sessionId: string; updatedAt: string }> = {};
  const updatedAt = new Date().toISOString();
  const contexts: string[] = [];
  const sessionIds: string[] = [];
  // One transcript text per length: the copies differ only by their session id's lines.
  const base = transcriptOf(t, "SESSION-ID", cwd, seed.turns);
  for (let i = 0; i < seed.resumable + seed.stale; i++) {
    const contextId = randomUUID();
    const sessionId = randomUUID();
    sessions[JSON.stringify([t.owner, contextId])] = { sessionId, updatedAt };
    if (i < seed.resumable) {
      contexts.push(contextId);
      sessionIds.push(sessionId);
      await writeFile(
        join(project, `${sessionId}.jsonl`),
        base.split("SESSION-ID").join(sessionId),
      );
    }
  }
  await writeFile(join(cwd, SESSIONS_FILE), JSON.stringify({ version: 1, sessions }));
  return { contexts, sessionIds };
}
