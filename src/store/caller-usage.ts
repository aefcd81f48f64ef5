import { sql, type Kysely, type Migration } from "kysely";
import { migrateOwnTables } from "./own-migrations.js";

/**
 * What per-caller limits count, kept beside the tasks (SQLite or PostgreSQL) so that a restart
 * resets nothing: when each caller's tasks started (the last minute's matter) and what its tasks
 * cost per UTC day. A caller is its scope (`token:ci`, `login:…`, `unknown`).
 */
export interface CallerUsageStore {
  /** The starts at or after `sinceMs` and the spend of `day`, every caller's. */
  load(sinceMs: number, day: string): Promise<CallerUsageSnapshot>;
  recordStart(owner: string, atMs: number): Promise<void>;
  /** Adds `usd` to what `owner` spent on `day` (`2025-01-31`). */
  addSpend(owner: string, day: string, usd: number): Promise<void>;
  /** Forgets starts before `beforeMs` and the spend of days before `beforeDay`. */
  prune(beforeMs: number, beforeDay: string): Promise<void>;
}

export interface CallerUsageSnapshot {
  readonly starts: readonly { readonly owner: string; readonly atMs: number }[];
  readonly spend: readonly { readonly owner: string; readonly usd: number }[];
}

export const TASK_STARTS_TABLE = "claude_a2a_task_starts";
export const DAILY_SPEND_TABLE = "claude_a2a_daily_spend";
const LEDGER_TABLE = "claude_a2a_caller_usage_migrations";
const LOCK_TABLE = "claude_a2a_caller_usage_migrations_lock";

/**
 * The tables' migrations, by name in the order they apply (Kysely's migrator, with a ledger of
 * its own beside the SDK's, so each side upgrades its own tables). Append; never edit one that
 * has shipped.
 */
const MIGRATIONS: Record<string, Migration> = {
  "0001_create_caller_usage": {
    async up(db) {
      await db.schema
        .createTable(TASK_STARTS_TABLE)
        .addColumn("owner", "text", (c) => c.notNull())
        .addColumn("started_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex(`${TASK_STARTS_TABLE}_owner_started_at`)
        .on(TASK_STARTS_TABLE)
        .columns(["owner", "started_at"])
        .execute();
      await db.schema
        .createTable(DAILY_SPEND_TABLE)
        .addColumn("owner", "text", (c) => c.notNull())
        .addColumn("day", "varchar(10)", (c) => c.notNull())
        .addColumn("usd", "double precision", (c) => c.notNull())
        .addPrimaryKeyConstraint(`${DAILY_SPEND_TABLE}_pkey`, ["owner", "day"])
        .execute();
    },
    async down(db) {
      await db.schema.dropTable(DAILY_SPEND_TABLE).ifExists().execute();
      await db.schema.dropTable(TASK_STARTS_TABLE).ifExists().execute();
    },
  },
};

/** Brings the caller-usage tables to their latest schema; safe at every start. */
export async function migrateCallerUsage(db: Kysely<unknown>): Promise<void> {
  await migrateOwnTables(db, {
    what: "caller-usage",
    migrations: MIGRATIONS,
    ledgerTable: LEDGER_TABLE,
    lockTable: LOCK_TABLE,
  });
}

interface Tables {
  [TASK_STARTS_TABLE]: { owner: string; started_at: number | string };
  [DAILY_SPEND_TABLE]: { owner: string; day: string; usd: number | string };
}

/** The counters in the task store's database (migrated first: `migrateCallerUsage`). */
export class SqlCallerUsage implements CallerUsageStore {
  private readonly db: Kysely<Tables>;

  constructor(db: Kysely<unknown>) {
    this.db = db as unknown as Kysely<Tables>;
  }

  async load(sinceMs: number, day: string): Promise<CallerUsageSnapshot> {
    const starts = await this.db
      .selectFrom(TASK_STARTS_TABLE)
      .select(["owner", "started_at"])
      .where("started_at", ">=", sinceMs)
      .execute();
    const spend = await this.db
      .selectFrom(DAILY_SPEND_TABLE)
      .select(["owner", "usd"])
      .where("day", "=", day)
      .execute();
    // PostgreSQL's driver reads bigint and double precision as strings.
    return {
      starts: starts.map((r) => ({ owner: r.owner, atMs: Number(r.started_at) })),
      spend: spend.map((r) => ({ owner: r.owner, usd: Number(r.usd) })),
    };
  }

  async recordStart(owner: string, atMs: number): Promise<void> {
    await this.db.insertInto(TASK_STARTS_TABLE).values({ owner, started_at: atMs }).execute();
  }

  async addSpend(owner: string, day: string, usd: number): Promise<void> {
    await this.db
      .insertInto(DAILY_SPEND_TABLE)
      .values({ owner, day, usd })
      .onConflict((oc) =>
        oc.columns(["owner", "day"]).doUpdateSet({
          usd: sql<number>`${sql.ref(`${DAILY_SPEND_TABLE}.usd`)} + excluded.usd`,
        }),
      )
      .execute();
  }

  async prune(beforeMs: number, beforeDay: string): Promise<void> {
    await this.db.deleteFrom(TASK_STARTS_TABLE).where("started_at", "<", beforeMs).execute();
    await this.db.deleteFrom(DAILY_SPEND_TABLE).where("day", "<", beforeDay).execute();
  }
}

/** The counters of the memory store: lost at restart, like its tasks. */
export class MemoryCallerUsage implements CallerUsageStore {
  private starts: { owner: string; atMs: number }[] = [];
  private readonly spend = new Map<string, number>();

  load(sinceMs: number, day: string): Promise<CallerUsageSnapshot> {
    const spend = [...this.spend].flatMap(([key, usd]) => {
      const [owner, d] = JSON.parse(key) as [string, string];
      return d === day ? [{ owner, usd }] : [];
    });
    return Promise.resolve({ starts: this.starts.filter((s) => s.atMs >= sinceMs), spend });
  }

  recordStart(owner: string, atMs: number): Promise<void> {
    this.starts.push({ owner, atMs });
    return Promise.resolve();
  }

  addSpend(owner: string, day: string, usd: number): Promise<void> {
    const key = JSON.stringify([owner, day]);
    this.spend.set(key, (this.spend.get(key) ?? 0) + usd);
    return Promise.resolve();
  }

  prune(beforeMs: number, beforeDay: string): Promise<void> {
    this.starts = this.starts.filter((s) => s.atMs >= beforeMs);
    for (const key of this.spend.keys()) {
      if ((JSON.parse(key) as [string, string])[1] < beforeDay) this.spend.delete(key);
    }
    return Promise.resolve();
  }
}
