/**
 * The session map a server keeps for its workspace, read (or changed, while the server is
 * stopped) from outside: in the SQLite task store, or with the memory store in its own file.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { DEFAULT_SQLITE_PATH } from "../../../src/config/schema.js";
import { parseConversationKey } from "../../../src/identity/conversation.js";
import { SESSIONS_DB_FILE, type SessionEntry } from "../../../src/store/session-map.js";
import { entryOf } from "../../../src/store/session-rows.js";

const TABLE = "claude_a2a_sessions";

/** The database file holding the map of workspace `cwd`, or undefined before the first start. */
function mapDatabase(cwd: string): string | undefined {
  return [DEFAULT_SQLITE_PATH, SESSIONS_DB_FILE]
    .map((file) => join(cwd, file))
    .find((file) => {
      if (!existsSync(file)) return false;
      const db = new BetterSqlite3(file, { readonly: true });
      try {
        return db.prepare("select 1 from sqlite_master where name = ?").get(TABLE) !== undefined;
      } finally {
        db.close();
      }
    });
}

/** The map of workspace `cwd` (a single server's rows), empty when there is none yet. */
export function readSessionMap(cwd: string): Map<string, SessionEntry> {
  const file = mapDatabase(cwd);
  if (file === undefined) return new Map();
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const rows = db.prepare(`select * from ${TABLE} where instance = ''`).all() as (Parameters<
      typeof entryOf
    >[0] & { conversation: string })[];
    return new Map(rows.map((r) => [r.conversation, entryOf(r)]));
  } finally {
    db.close();
  }
}

/** The map's keys in workspace `cwd` (each `[caller, contextId]` as JSON), sorted. */
export function mappedSessionKeys(cwd: string): Promise<string[]> {
  return Promise.resolve([...readSessionMap(cwd).keys()].sort());
}

/** The map's key of a context's conversation; throws when there is none. */
export function mappedKeyOf(cwd: string, contextId: string): string {
  const key = [...readSessionMap(cwd).keys()].find(
    (k) => parseConversationKey(k)?.contextId === contextId,
  );
  if (key === undefined) throw new Error(`no session-map entry for context ${contextId}`);
  return key;
}

/** Points a context's conversation at another session (the server stopped meanwhile). */
export function remapSession(cwd: string, contextId: string, sessionId: string): void {
  const key = mappedKeyOf(cwd, contextId);
  const db = new BetterSqlite3(mapDatabase(cwd) ?? "");
  try {
    db.prepare(
      `update ${TABLE} set session_id = ?, updated_at = ?, resume_at = null, fork = 0, branch = null
       where instance = '' and conversation = ?`,
    ).run(sessionId, new Date().toISOString(), key);
  } finally {
    db.close();
  }
}

/**
 * Adds `n` mappings whose transcripts do not exist (the server stopped meanwhile), of
 * conversations `["unknown", "stale-<i>"]`; the map loads its rows in key order, so a context
 * that sorts after "stale-" is swept last. One transaction.
 */
export function addStaleSessions(cwd: string, n: number): void {
  const db = new BetterSqlite3(mapDatabase(cwd) ?? "");
  try {
    const insert = db.prepare(
      `insert into ${TABLE} (instance, conversation, session_id, updated_at) values ('', ?, ?, ?)`,
    );
    const at = new Date().toISOString();
    db.transaction(() => {
      for (let i = 0; i < n; i++) {
        insert.run(JSON.stringify(["unknown", `stale-${i}`]), randomUUID(), at);
      }
    })();
  } finally {
    db.close();
  }
}
