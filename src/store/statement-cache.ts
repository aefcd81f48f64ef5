import type BetterSqlite3 from "better-sqlite3";
import type { SqliteDatabase } from "kysely";

/** More distinct statements than the stores' queries have shapes: only a runaway fills it. */
const MAX_STATEMENTS = 256;

/** Prepared statements of one SQLite connection, each distinct SQL text prepared once. */
export interface Statements {
  prepare(sql: string): BetterSqlite3.Statement;
  /** Whether a transaction is open on the connection (one of Kysely's, between its awaits). */
  readonly inTransaction: boolean;
}

/**
 * A SQLite connection for Kysely that prepares each distinct SQL text once. Kysely's SQLite
 * driver prepares every query anew, and preparing costs more than running the store's small
 * indexed queries (a third of a GetTask's database time in a profile). A statement is reused only
 * when not busy: one still iterating (a streamed query) gets a fresh one. The store's hot reads
 * prepare theirs here too (`Statements`), past Kysely, sharing the same cache.
 */
export function cachingConnection(connection: BetterSqlite3.Database): SqliteDatabase & Statements {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => {
      statements.clear();
      connection.close();
    },
    get inTransaction() {
      return connection.inTransaction;
    },
    prepare(sql: string): BetterSqlite3.Statement {
      const cached = statements.get(sql);
      if (cached !== undefined && !cached.busy) return cached;
      const statement = connection.prepare(sql);
      if (cached === undefined) {
        if (statements.size >= MAX_STATEMENTS) statements.clear();
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * Runs `work`'s statements now, in one transaction when there are `several` (a single statement
 * is one by itself); a failure rolls back what it began and rethrows the statement's own error.
 */
export function writeAtomically(s: Statements, several: boolean, work: () => void): void {
  if (several) s.prepare("BEGIN").run();
  try {
    work();
    if (several) s.prepare("COMMIT").run();
  } catch (err) {
    // SQLite may have rolled back already (a full disk does): the write's own error is what the
    // store's health names, never the rollback's "no transaction is active".
    if (several) {
      try {
        s.prepare("ROLLBACK").run();
      } catch {
        // Nothing was left open.
      }
    }
    throw err;
  }
}
