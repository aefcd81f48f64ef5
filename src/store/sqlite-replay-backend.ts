import { StreamResponse } from "@a2a-js/sdk";
import type { EventRow, SendRow } from "./kept-events.js";
import type { KeptEvent, KeptRange, SentMessage } from "./replay-log.js";
import { SqlReplayBackend, toNumber } from "./sql-replay-backend.js";
import { writeAtomically, type Statements } from "./statement-cache.js";
import type { Kysely } from "kysely";

/**
 * Rows per insert statement: a write's events go in one statement, or a few (running a
 * statement per row cost a warm turn about 0.2 ms of CPU more, docs/reliability.md "Cost").
 */
const ROWS_PER_INSERT = 8;
/** The insert of `rows` events, one prepared statement per count (1 … ROWS_PER_INSERT). */
const insertEvents = (rows: number) =>
  `INSERT INTO claude_a2a_replay_events (task_id, n, at, ends, event) VALUES ${Array.from(
    { length: rows },
    () => "(?, ?, ?, ?, ?)",
  ).join(", ")} ON CONFLICT DO NOTHING`;
const INSERT_EVENTS = Array.from({ length: ROWS_PER_INSERT }, (_, i) => insertEvents(i + 1));
const INSERT_SEND = `INSERT INTO claude_a2a_sent_messages (scope, key, owner, task_id, after_n, at)
  VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`;
const SELECT_SEND = `SELECT owner, task_id, after_n FROM claude_a2a_sent_messages
  WHERE scope = ? AND key = ?`;
const SELECT_RANGE = `SELECT min(n) AS oldest, max(n) AS last FROM claude_a2a_replay_events
  WHERE task_id = ?`;
const SELECT_EVENTS = `SELECT n, event FROM claude_a2a_replay_events WHERE task_id = ? AND n > ?
  ORDER BY n`;

/**
 * The replay tables on SQLite, through prepared statements of the store's own connection: what
 * every warm turn does (its send looked up and written, its events written) went through Kysely's
 * query building, which cost more server CPU than SQLite's work (docs/BENCHMARKS.md, "resume").
 * A write is one synchronous transaction (better-sqlite3 runs statements on the event loop), so
 * nothing else can run inside it; it only has to wait when a transaction of the task store is
 * open on the connection (Kysely's, between its awaits), by taking Kysely's connection as the
 * store does. Pruning, rare, stays on Kysely.
 */
export class SqliteReplayBackend extends SqlReplayBackend {
  constructor(
    db: Kysely<unknown>,
    private readonly statements: Statements,
  ) {
    super(db);
  }

  override async write(events: readonly EventRow[], sends: readonly SendRow[]): Promise<void> {
    if (events.length === 0 && sends.length === 0) return;
    // Serialized before the connection is taken: nothing else waits on it meanwhile.
    const eventRows = events.map((e) => [e.taskId, e.n, e.at, e.ends ? 1 : 0, e.json] as const);
    // Taking Kysely's connection builds a Kysely instance per call (a warm turn wrote twice):
    // only when the task store is mid-transaction does this write have to wait for it.
    if (!this.statements.inTransaction) return this.insert(eventRows, sends);
    await this.db.connection().execute(() => this.insert(eventRows, sends));
  }

  /** The rows in one transaction, now (a single statement is one by itself). */
  private insert(
    eventRows: readonly (readonly [string, number, number, number, string])[],
    sends: readonly SendRow[],
  ): Promise<void> {
    const s = this.statements;
    const statements = Math.ceil(eventRows.length / ROWS_PER_INSERT) + sends.length;
    try {
      writeAtomically(s, statements > 1, () => {
        for (let i = 0; i < eventRows.length; i += ROWS_PER_INSERT) {
          const chunk = eventRows.slice(i, i + ROWS_PER_INSERT);
          s.prepare(INSERT_EVENTS[chunk.length - 1] as string).run(...chunk.flat());
        }
        const insertSend = s.prepare(INSERT_SEND);
        for (const r of sends) insertSend.run(r.scope, r.key, r.owner, r.taskId, r.after, r.at);
      });
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    return Promise.resolve();
  }

  override read(
    taskId: string,
    cursor: number,
  ): Promise<{ range: KeptRange; events: KeptEvent[] }> {
    const row = this.statements.prepare(SELECT_RANGE).get(taskId) as
      { oldest: unknown; last: unknown } | undefined;
    const range = { oldest: toNumber(row?.oldest), last: toNumber(row?.last) };
    if (range.last === undefined || cursor >= range.last)
      return Promise.resolve({ range, events: [] });
    const rows = this.statements.prepare(SELECT_EVENTS).all(taskId, cursor) as {
      n: unknown;
      event: string;
    }[];
    const kept = rows.map((r) => ({
      n: Number(r.n),
      event: StreamResponse.fromJSON(JSON.parse(r.event)),
    }));
    return Promise.resolve({ range, events: kept });
  }

  override findSend(scope: string, key: string): Promise<SentMessage | undefined> {
    const row = this.statements.prepare(SELECT_SEND).get(scope, key) as
      { owner: string; task_id: string; after_n: unknown } | undefined;
    return Promise.resolve(
      row && { owner: row.owner, taskId: row.task_id, after: Number(row.after_n) },
    );
  }
}
