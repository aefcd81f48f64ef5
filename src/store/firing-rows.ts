/**
 * A schedule's firings (docs/triggers.md "Schedules"), one row each in the task store's database
 * (SQLite or PostgreSQL; the memory store's in its session map's SQLite file). The row's key is the
 * workspace, the trigger and the firing: inserting it is the claim, and a conflict means another
 * instance of a fleet, or an earlier run of this server, fired it already. No timer race decides.
 */
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect, type Migration } from "kysely";
import { openDatabase, type DatabaseSpec } from "./database.js";
import { migrateOwnTables } from "./own-migrations.js";
import { SESSIONS_DB_FILE } from "./session-map.js";
import { underSchemaLock } from "./schema-lock.js";

export const FIRINGS_TABLE = "claude_a2a_trigger_firings";
const LEDGER_TABLE = "claude_a2a_trigger_firings_migrations";
const LOCK_TABLE = "claude_a2a_trigger_firings_migrations_lock";

/**
 * `scheduled`: a period of the cron; `manual`: fired by an operator (its key is its own);
 * `baseline`: when this schedule was first run, where catch-up starts if it never fired.
 */
export type FiringKind = "scheduled" | "manual" | "baseline";

/** What became of a firing: `claimed` until its send answers. */
export type FiringOutcome =
  "claimed" | "started" | "duplicate" | "budget" | "limited" | "refused" | "skipped" | "baseline";

export interface FiringRow {
  readonly trigger: string;
  /** Unique per (workspace, trigger): the scheduled time in ISO form, or `manual:<id>`. */
  readonly key: string;
  readonly kind: FiringKind;
  /** The period's time; a manual firing's, when it was asked. */
  readonly scheduledAt: Date;
  /** The instance that claimed it ("" for a single server). */
  readonly instance: string;
  readonly outcome: FiringOutcome;
  readonly taskId?: string | undefined;
}

/** Append; never edit one that has shipped. */
const MIGRATIONS: Record<string, Migration> = {
  "0001_create_trigger_firings": {
    async up(db) {
      await db.schema
        .createTable(FIRINGS_TABLE)
        .addColumn("workspace", "text", (c) => c.notNull())
        .addColumn("trigger", "text", (c) => c.notNull())
        .addColumn("firing", "text", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("scheduled_at", "text", (c) => c.notNull())
        .addColumn("instance", "text", (c) => c.notNull())
        .addColumn("outcome", "text", (c) => c.notNull())
        .addColumn("task_id", "text")
        .addColumn("updated_at", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint(`${FIRINGS_TABLE}_pkey`, ["workspace", "trigger", "firing"])
        .execute();
    },
    async down(db) {
      await db.schema.dropTable(FIRINGS_TABLE).ifExists().execute();
    },
  },
};

interface Row {
  workspace: string;
  trigger: string;
  firing: string;
  kind: string;
  scheduled_at: string;
  instance: string;
  outcome: string;
  task_id: string | null;
  updated_at: string;
}

interface Tables {
  [FIRINGS_TABLE]: Row;
}

/** Brings the firings' table to its latest schema; safe at every start. */
export async function migrateFiringRows(db: Kysely<unknown>): Promise<void> {
  await migrateOwnTables(db, {
    what: "trigger firings",
    migrations: MIGRATIONS,
    ledgerTable: LEDGER_TABLE,
    lockTable: LOCK_TABLE,
  });
}

const rowOf = (r: Row): FiringRow => ({
  trigger: r.trigger,
  key: r.firing,
  kind: r.kind as FiringKind,
  scheduledAt: new Date(r.scheduled_at),
  instance: r.instance,
  outcome: r.outcome as FiringOutcome,
  ...(r.task_id !== null && { taskId: r.task_id }),
});

/** The firings of one workspace's schedules. */
export interface FiringRows {
  /** Inserts the row; false when one with its key exists (fired elsewhere or before). */
  claim(row: FiringRow): Promise<boolean>;
  /** Records what the firing's send answered. */
  settle(trigger: string, key: string, outcome: FiringOutcome, taskId?: string): Promise<void>;
  /**
   * The latest row of the trigger among these kinds (by scheduled time), if any; with
   * `skipped: false`, periods a catch-up skipped are passed over.
   */
  latest(
    trigger: string,
    kinds: readonly FiringKind[],
    o: { readonly skipped: boolean },
  ): Promise<FiringRow | undefined>;
  close(): Promise<void>;
}

export class SqlFiringRows implements FiringRows {
  private readonly db: Kysely<Tables>;

  constructor(
    db: Kysely<unknown>,
    private readonly workspace: string,
    private readonly release: () => Promise<void> = () => Promise.resolve(),
    private readonly now: () => Date = () => new Date(),
  ) {
    this.db = db as unknown as Kysely<Tables>;
  }

  async claim(row: FiringRow): Promise<boolean> {
    const result = await this.db
      .insertInto(FIRINGS_TABLE)
      .values({
        workspace: this.workspace,
        trigger: row.trigger,
        firing: row.key,
        kind: row.kind,
        scheduled_at: row.scheduledAt.toISOString(),
        instance: row.instance,
        outcome: row.outcome,
        task_id: row.taskId ?? null,
        updated_at: this.now().toISOString(),
      })
      .onConflict((oc) => oc.columns(["workspace", "trigger", "firing"]).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  async settle(
    trigger: string,
    key: string,
    outcome: FiringOutcome,
    taskId?: string,
  ): Promise<void> {
    await this.db
      .updateTable(FIRINGS_TABLE)
      .set({ outcome, task_id: taskId ?? null, updated_at: this.now().toISOString() })
      .where("workspace", "=", this.workspace)
      .where("trigger", "=", trigger)
      .where("firing", "=", key)
      .execute();
  }

  async latest(
    trigger: string,
    kinds: readonly FiringKind[],
    o: { readonly skipped: boolean },
  ): Promise<FiringRow | undefined> {
    if (kinds.length === 0) return undefined;
    let query = this.db
      .selectFrom(FIRINGS_TABLE)
      .selectAll()
      .where("workspace", "=", this.workspace)
      .where("trigger", "=", trigger)
      .where("kind", "in", kinds);
    if (!o.skipped) query = query.where("outcome", "!=", "skipped");
    const row = await query.orderBy("scheduled_at", "desc").limit(1).executeTakeFirst();
    return row && rowOf(row);
  }

  close(): Promise<void> {
    return this.release();
  }
}

/** The rows in the task store's database, on a connection of their own that `close()` ends. */
export async function openStoreFiringRows(
  spec: DatabaseSpec,
  workspace: string,
): Promise<FiringRows> {
  const { db, type } = await openDatabase(spec);
  try {
    await underSchemaLock(db, type, migrateFiringRows);
    return new SqlFiringRows(db, workspace, () => db.destroy());
  } catch (err) {
    await db.destroy();
    throw err;
  }
}

/**
 * The memory store's rows: in its session map's SQLite file (`SESSIONS_DB_FILE` of the state
 * dir), on a connection of their own that `close()` ends.
 */
export async function openLocalFiringRows(
  stateDir: string,
  workspace: string,
): Promise<FiringRows> {
  const file = join(stateDir, SESSIONS_DB_FILE);
  await mkdir(dirname(file), { recursive: true });
  const connection = new BetterSqlite3(file);
  connection.pragma("journal_mode = WAL");
  // The map writes on a connection of its own: wait for it rather than fail.
  connection.pragma("busy_timeout = 5000");
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: connection }) });
  try {
    await migrateFiringRows(db);
    return new SqlFiringRows(db, workspace, () => db.destroy());
  } catch (err) {
    await db.destroy();
    throw err;
  }
}

/**
 * The rows where the store keeps them: in its database (`spec`, from `databaseSpec`), or with the
 * memory store (no spec) in the session map's file of `stateDir`.
 */
export function openFiringRows(
  spec: DatabaseSpec | undefined,
  stateDir: string,
  workspace: string,
): Promise<FiringRows> {
  return spec === undefined
    ? openLocalFiringRows(stateDir, workspace)
    : openStoreFiringRows(spec, workspace);
}
