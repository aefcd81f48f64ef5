import { Migrator, type Kysely, type Migration } from "kysely";

/** Our own tables' migrations, each set with its own ledger and lock beside the SDK's. */
export interface OwnMigrations {
  /** What the tables hold, for the error: "caller-usage", "session map". */
  readonly what: string;
  readonly migrations: Readonly<Record<string, Migration>>;
  readonly ledgerTable: string;
  readonly lockTable: string;
}

/** Brings a set of our tables to its latest schema; safe at every start. */
export async function migrateOwnTables(db: Kysely<unknown>, m: OwnMigrations): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve({ ...m.migrations }) },
    migrationTableName: m.ledgerTable,
    migrationLockTableName: m.lockTable,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error === undefined) return;
  const failed = results?.find((r) => r.status === "Error")?.migrationName;
  const why = error instanceof Error ? error.message : JSON.stringify(error);
  throw new Error(`${m.what} migration${failed ? ` "${failed}"` : ""} failed: ${why}`, {
    cause: error,
  });
}
