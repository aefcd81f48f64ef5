/**
 * Opening the session map: in the task store's database (SQLite or PostgreSQL), or with the
 * memory store in a SQLite file of its own (`SESSIONS_DB_FILE`), which keeps the conversations
 * across restarts as the map always has. Either way the map file of earlier versions is imported
 * first, then the rows are loaded into the index every read comes from.
 */
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import type { ConversationKey } from "../identity/conversation.js";
import { IndexedSessionMap } from "./indexed-session-map.js";
import { importMapFile } from "./session-map-import.js";
import { SESSIONS_DB_FILE, type SessionMap, type SessionMapLogger } from "./session-map.js";
import { migrateSessionRows, SqlSessionRows } from "./session-rows.js";
import { underSchemaLock } from "./schema-lock.js";

export interface SessionMapOptions {
  /** Where the map file of earlier versions is looked for (`<cwd>/.claude/…`). */
  readonly cwd: string;
  readonly logger: SessionMapLogger;
  /** Clock, for tests. */
  readonly now?: () => Date;
  /** Rewrites a key of an older file into today's form; without it keys are taken as they are. */
  readonly upgradeKey?: (key: string) => ConversationKey;
}

export interface StoreSessionMapOptions extends SessionMapOptions {
  readonly db: Kysely<unknown>;
  readonly type: "sqlite" | "postgres";
  /** Whose rows these are: a fleet instance's id, "" for a single server. */
  readonly instance: string;
}

/** The map in the task store's database (already open; the map never closes it). */
export async function openStoreSessionMap(o: StoreSessionMapOptions): Promise<SessionMap> {
  await underSchemaLock(o.db, o.type, migrateSessionRows);
  return openOn(new SqlSessionRows(o.db, o.instance), o, () => Promise.resolve());
}

/** The memory store's map: `<cwd>/.claude/claude-a2a.sessions.db`, closed by `close()`. */
export async function openLocalSessionMap(o: SessionMapOptions): Promise<SessionMap> {
  const file = join(o.cwd, SESSIONS_DB_FILE);
  await mkdir(dirname(file), { recursive: true });
  const connection = new BetterSqlite3(file);
  connection.pragma("journal_mode = WAL");
  connection.pragma("synchronous = NORMAL");
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: connection }) });
  try {
    await migrateSessionRows(db);
    return await openOn(new SqlSessionRows(db, ""), o, () => db.destroy());
  } catch (err) {
    await db.destroy();
    throw err;
  }
}

async function openOn(
  rows: SqlSessionRows,
  o: SessionMapOptions,
  release: () => Promise<void>,
): Promise<SessionMap> {
  const now = o.now ?? (() => new Date());
  await importMapFile({
    cwd: o.cwd,
    logger: o.logger,
    now,
    upgradeKey: o.upgradeKey,
    store: (entries) => rows.addMissing(entries),
  });
  return new IndexedSessionMap(rows, await rows.load(), now, release);
}
