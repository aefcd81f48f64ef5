import { sql, type Kysely } from "kysely";

/**
 * Our part of a store's schema (indexes, the caller-usage and replay tables) is made with
 * `CREATE … IF NOT EXISTS`, which PostgreSQL does not make safe against itself: two instances of
 * a fleet starting at once on a fresh database failed with `duplicate key value violates unique
 * constraint "pg_type_typname_nsp_index"`. On PostgreSQL the steps therefore run on one
 * connection holding a session advisory lock, so the instances take turns; SQLite has one writer
 * anyway.
 */
const SCHEMA_LOCK = 0x636c6173; // "clas": apart from the fleet tables' lock

export async function underSchemaLock<T>(
  db: Kysely<unknown>,
  type: "sqlite" | "postgres",
  steps: (db: Kysely<unknown>) => Promise<T>,
): Promise<T> {
  if (type !== "postgres") return steps(db);
  return db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(${SCHEMA_LOCK})`.execute(connection);
    try {
      return await steps(connection);
    } finally {
      await sql`SELECT pg_advisory_unlock(${SCHEMA_LOCK})`.execute(connection);
    }
  });
}
