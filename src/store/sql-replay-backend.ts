import { StreamResponse } from "@a2a-js/sdk";
import { sql, type Kysely } from "kysely";
import type { EventRow, ReplayBackend, SendRow } from "./kept-events.js";
import type { KeptEvent, KeptRange, SentMessage } from "./replay-log.js";

/**
 * The replay tables, beside the SDK's in the task store's database (SQLite or PostgreSQL, the
 * same SQL): every numbered event of a task (`ends`: its terminal status, from which retention
 * counts), and every send's idempotency key with the task it answers.
 */
const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS claude_a2a_replay_events (
     task_id TEXT NOT NULL, n BIGINT NOT NULL, at BIGINT NOT NULL, ends INTEGER NOT NULL,
     event TEXT NOT NULL, PRIMARY KEY (task_id, n))`,
  // Retention's index: of terminal rows only (an index of every row cost each event an entry).
  `CREATE INDEX IF NOT EXISTS claude_a2a_replay_events_end_at ON claude_a2a_replay_events (at)
     WHERE ends = 1`,
  `DROP INDEX IF EXISTS claude_a2a_replay_events_ended`,
  `CREATE TABLE IF NOT EXISTS claude_a2a_sent_messages (
     scope TEXT NOT NULL, key TEXT NOT NULL, owner TEXT NOT NULL, task_id TEXT NOT NULL,
     after_n BIGINT NOT NULL, at BIGINT NOT NULL, PRIMARY KEY (scope, key))`,
];

/** Rows per insert statement (far below either database's limit on bound values). */
const CHUNK = 200;
/** A task with no event for this long past the retention is pruned even if it never ended. */
const UNENDED_GRACE_MS = 86_400_000;

export async function migrateReplay(db: Kysely<unknown>): Promise<void> {
  for (const statement of SCHEMA) await sql.raw(statement).execute(db);
}

export class SqlReplayBackend implements ReplayBackend {
  constructor(protected readonly db: Kysely<unknown>) {}

  async write(events: readonly EventRow[], sends: readonly SendRow[]): Promise<void> {
    for (let i = 0; i < events.length; i += CHUNK) {
      const rows = events
        .slice(i, i + CHUNK)
        .map((e) => sql`(${e.taskId}, ${e.n}, ${e.at}, ${e.ends ? 1 : 0}, ${e.json})`);
      await sql`INSERT INTO claude_a2a_replay_events (task_id, n, at, ends, event)
                VALUES ${sql.join(rows)} ON CONFLICT DO NOTHING`.execute(this.db);
    }
    for (let i = 0; i < sends.length; i += CHUNK) {
      const rows = sends
        .slice(i, i + CHUNK)
        .map((s) => sql`(${s.scope}, ${s.key}, ${s.owner}, ${s.taskId}, ${s.after}, ${s.at})`);
      await sql`INSERT INTO claude_a2a_sent_messages (scope, key, owner, task_id, after_n, at)
                VALUES ${sql.join(rows)} ON CONFLICT DO NOTHING`.execute(this.db);
    }
  }

  async read(taskId: string, cursor: number): Promise<{ range: KeptRange; events: KeptEvent[] }> {
    const range = await sql<{ oldest: unknown; last: unknown }>`
      SELECT min(n) AS oldest, max(n) AS last FROM claude_a2a_replay_events WHERE task_id = ${taskId}`.execute(
      this.db,
    );
    const row = range.rows[0];
    const kept = { oldest: toNumber(row?.oldest), last: toNumber(row?.last) };
    if (kept.last === undefined || cursor >= kept.last) return { range: kept, events: [] };
    const rows = await sql<{ n: unknown; event: string }>`
      SELECT n, event FROM claude_a2a_replay_events WHERE task_id = ${taskId} AND n > ${cursor}
      ORDER BY n`.execute(this.db);
    return {
      range: kept,
      events: rows.rows.map((r) => ({
        n: Number(r.n),
        event: StreamResponse.fromJSON(JSON.parse(r.event)),
      })),
    };
  }

  async findSend(scope: string, key: string): Promise<SentMessage | undefined> {
    const { rows } = await sql<{ owner: string; task_id: string; after_n: unknown }>`
      SELECT owner, task_id, after_n FROM claude_a2a_sent_messages
       WHERE scope = ${scope} AND key = ${key}`.execute(this.db);
    const row = rows[0];
    return row && { owner: row.owner, taskId: row.task_id, after: Number(row.after_n) };
  }

  async prune(cutoff: number): Promise<number> {
    const ended = await sql`
      DELETE FROM claude_a2a_replay_events WHERE task_id IN (
        SELECT task_id FROM claude_a2a_replay_events WHERE ends = 1 AND at < ${cutoff})`.execute(
      this.db,
    );
    const stale = await sql`
      DELETE FROM claude_a2a_replay_events WHERE task_id IN (
        SELECT task_id FROM claude_a2a_replay_events GROUP BY task_id
        HAVING max(at) < ${cutoff - UNENDED_GRACE_MS})`.execute(this.db);
    await sql`
      DELETE FROM claude_a2a_sent_messages WHERE at < ${cutoff} AND NOT EXISTS (
        SELECT 1 FROM claude_a2a_replay_events e WHERE e.task_id = claude_a2a_sent_messages.task_id)`.execute(
      this.db,
    );
    return Number(ended.numAffectedRows ?? 0n) + Number(stale.numAffectedRows ?? 0n);
  }
}

export const toNumber = (v: unknown): number | undefined =>
  v === null || v === undefined ? undefined : Number(v);
