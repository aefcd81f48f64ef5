import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, sql } from "kysely";
import pg from "pg";
import { migrateToLatest } from "./sdk-migrations.js";
import { cachingConnection, type Statements } from "./statement-cache.js";

export type DatabaseSpec =
  | { readonly type: "sqlite"; readonly file: string }
  | { readonly type: "postgres"; readonly url: string };

/** A migrated database the SDK's stores can use. */
export type Database = {
  readonly db: Kysely<unknown>;
  /** Where it is, for logs and errors: the file, or the URL without its password. */
  readonly location: string;
} & (
  | {
      readonly type: "sqlite";
      /** The same connection's statements, for the store's hot reads past Kysely. */
      readonly statements: Statements;
    }
  | { readonly type: "postgres" }
);

/** Writers wait this long for a lock (another process on the same SQLite file). */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/**
 * SQLite's page cache for the one connection, in KiB (negative: a size, not a page count), up
 * to which it grows as pages are read. The default 2 MB held a small part of a store of 10,000
 * typical tasks (44 MB), so a ListTasks page of 50 cost some fifty reads from the file: 175 µs
 * of CPU against 117 µs with this cache (in-process, pages by random context).
 */
export const SQLITE_CACHE_KIB = 32 * 1024;

/**
 * Opens the database, after bringing it to the SDK's latest schema. SQLite runs in WAL mode
 * (readers never block the writer) with a busy timeout; PostgreSQL through a small `pg` pool.
 */
export function openDatabase(
  spec: Extract<DatabaseSpec, { type: "sqlite" }>,
): Promise<Extract<Database, { type: "sqlite" }>>;
export function openDatabase(spec: DatabaseSpec): Promise<Database>;
export async function openDatabase(spec: DatabaseSpec): Promise<Database> {
  if (spec.type === "sqlite") {
    mkdirSync(dirname(spec.file), { recursive: true });
    await migrateToLatest(`sqlite:${spec.file}`);
    const connection = new BetterSqlite3(spec.file);
    connection.pragma("journal_mode = WAL");
    connection.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    connection.pragma("synchronous = NORMAL");
    connection.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
    const statements = cachingConnection(connection);
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: statements }) });
    return { db, type: "sqlite", location: spec.file, statements };
  }
  const location = redactUrl(spec.url);
  try {
    await migrateToLatest(spec.url);
  } catch (err) {
    throw new Error(`PostgreSQL at ${location}: ${(err as Error).message}`, { cause: err });
  }
  const pool = new pg.Pool({ connectionString: spec.url, max: 5, connectionTimeoutMillis: 10_000 });
  // An idle connection the database drops (a restart, a failover) emits "error" on the pool; with
  // no listener that would end the process. The pool discards it and the next query connects
  // again; a query that fails meanwhile fails on its own (docs/reliability.md "Faults").
  pool.on("error", () => undefined);
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  return { db, type: "postgres", location };
}

/** Whether the database answers a trivial query. */
export async function pingDatabase(db: Kysely<unknown>): Promise<void> {
  await sql`select 1`.execute(db);
}

/** A URL with its password replaced, safe to log. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    return "<unparsable URL>";
  }
}
