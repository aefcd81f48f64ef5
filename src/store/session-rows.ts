/**
 * The conversation map's rows, in the task store's database (SQLite or PostgreSQL): one row per
 * conversation of an instance, each change one statement. A fleet's instances share the table,
 * each reading and writing only its own rows (`instance`); a single server's instance is "".
 */
import type { Kysely, Migration } from "kysely";
import { migrateOwnTables } from "./own-migrations.js";
import type { ConversationKey } from "../identity/conversation.js";
import type { SessionEntry } from "./session-map.js";

export const SESSIONS_TABLE = "claude_a2a_sessions";
const LEDGER_TABLE = "claude_a2a_sessions_migrations";
const LOCK_TABLE = "claude_a2a_sessions_migrations_lock";

/** Rows per insert or delete statement: far under either database's limit on parameters. */
const ROWS_PER_STATEMENT = 200;

/** Append; never edit one that has shipped. */
const MIGRATIONS: Record<string, Migration> = {
  "0001_create_sessions": {
    async up(db) {
      await db.schema
        .createTable(SESSIONS_TABLE)
        .addColumn("instance", "text", (c) => c.notNull())
        .addColumn("conversation", "text", (c) => c.notNull())
        .addColumn("session_id", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .addColumn("resume_at", "text")
        .addColumn("fork", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("branch", "text")
        .addPrimaryKeyConstraint(`${SESSIONS_TABLE}_pkey`, ["instance", "conversation"])
        .execute();
    },
    async down(db) {
      await db.schema.dropTable(SESSIONS_TABLE).ifExists().execute();
    },
  },
};

/** Brings the map's table to its latest schema; safe at every start. */
export async function migrateSessionRows(db: Kysely<unknown>): Promise<void> {
  await migrateOwnTables(db, {
    what: "session map",
    migrations: MIGRATIONS,
    ledgerTable: LEDGER_TABLE,
    lockTable: LOCK_TABLE,
  });
}

interface Row {
  instance: string;
  conversation: string;
  session_id: string;
  updated_at: string;
  resume_at: string | null;
  fork: number;
  branch: string | null;
}

interface Tables {
  [SESSIONS_TABLE]: Row;
}

/** Where the map's changes are stored: one conversation's row, or a batch in one transaction. */
export interface SessionRows {
  load(): Promise<Map<ConversationKey, SessionEntry>>;
  /** Writes the conversation's row as it is now (an upsert: one statement). */
  put(key: ConversationKey, entry: SessionEntry): Promise<void>;
  /** Deletes these conversations' rows, in one transaction. */
  remove(keys: readonly ConversationKey[]): Promise<void>;
  /** Adds rows for the conversations that have none (an import), in one transaction. */
  addMissing(entries: ReadonlyMap<ConversationKey, SessionEntry>): Promise<void>;
}

const rowOf = (instance: string, key: ConversationKey, e: SessionEntry): Row => ({
  instance,
  conversation: key,
  session_id: e.sessionId,
  updated_at: e.updatedAt,
  resume_at: e.resumeAt ?? null,
  fork: e.fork === true ? 1 : 0,
  branch: e.branch ?? null,
});

/** A row as the map holds it. Pure. */
export function entryOf(row: Omit<Row, "instance" | "conversation">): SessionEntry {
  return {
    sessionId: row.session_id,
    updatedAt: row.updated_at,
    ...(row.resume_at !== null && { resumeAt: row.resume_at }),
    ...(Number(row.fork) === 1 && { fork: true }),
    ...(row.branch !== null && { branch: row.branch }),
  };
}

const chunks = <T>(items: readonly T[]): T[][] =>
  Array.from({ length: Math.ceil(items.length / ROWS_PER_STATEMENT) }, (_, i) =>
    items.slice(i * ROWS_PER_STATEMENT, (i + 1) * ROWS_PER_STATEMENT),
  );

/** The rows of one instance, through Kysely (its SQLite driver serializes with the task store). */
export class SqlSessionRows implements SessionRows {
  private readonly db: Kysely<Tables>;

  constructor(
    db: Kysely<unknown>,
    private readonly instance: string,
  ) {
    this.db = db as unknown as Kysely<Tables>;
  }

  async load(): Promise<Map<ConversationKey, SessionEntry>> {
    const rows = await this.db
      .selectFrom(SESSIONS_TABLE)
      .select(["conversation", "session_id", "updated_at", "resume_at", "fork", "branch"])
      .where("instance", "=", this.instance)
      .execute();
    return new Map(rows.map((r) => [r.conversation as ConversationKey, entryOf(r)]));
  }

  async put(key: ConversationKey, entry: SessionEntry): Promise<void> {
    const row = rowOf(this.instance, key, entry);
    await this.db
      .insertInto(SESSIONS_TABLE)
      .values(row)
      .onConflict((oc) =>
        oc.columns(["instance", "conversation"]).doUpdateSet({
          session_id: row.session_id,
          updated_at: row.updated_at,
          resume_at: row.resume_at,
          fork: row.fork,
          branch: row.branch,
        }),
      )
      .execute();
  }

  async remove(keys: readonly ConversationKey[]): Promise<void> {
    if (keys.length === 0) return;
    const [only] = keys;
    if (keys.length === 1 && only !== undefined) return this.removeIn(this.db, [only]);
    await this.db.transaction().execute(async (trx) => {
      for (const chunk of chunks(keys)) await this.removeIn(trx, chunk);
    });
  }

  async addMissing(entries: ReadonlyMap<ConversationKey, SessionEntry>): Promise<void> {
    const rows = [...entries].map(([key, e]) => rowOf(this.instance, key, e));
    if (rows.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const chunk of chunks(rows)) {
        await trx
          .insertInto(SESSIONS_TABLE)
          .values(chunk)
          .onConflict((oc) => oc.columns(["instance", "conversation"]).doNothing())
          .execute();
      }
    });
  }

  private async removeIn(db: Kysely<Tables>, keys: readonly ConversationKey[]): Promise<void> {
    await db
      .deleteFrom(SESSIONS_TABLE)
      .where("instance", "=", this.instance)
      .where("conversation", "in", keys)
      .execute();
  }
}
