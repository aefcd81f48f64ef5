import { StreamResponse } from "@a2a-js/sdk";
import type pg from "pg";
import type { Logger } from "pino";
import type { ReplayBackend } from "../store/kept-events.js";
import { notifyPayload, type RelayRow, type RelaySource } from "./relay-source.js";
import { CHANNEL } from "./tables.js";

/** What the relay needs of the replay log its events are kept in. */
export interface KeptLog {
  /** Writes everything kept so far. */
  flush(): Promise<void>;
}

/**
 * The fleet relays its tasks' events from the replay table (`claude_a2a_replay_events`, the one
 * the task's numbered events are kept in for replay): the owner writes each event once, and a
 * subscriber's cursor is the task's event number. The owner's replay writes wake subscribers
 * (`notifying`); pruning is the replay retention's (`replay.retainMs`), not the relay's.
 */
export class ReplayTableSource implements RelaySource {
  constructor(
    private readonly pool: pg.Pool,
    private readonly log: KeptLog,
  ) {}

  append(): void {
    // The task channel has kept it already (numbered), in the replay log this source reads.
  }

  flushed(): Promise<void> {
    return this.log.flush();
  }

  async subscribe(id: string, taskId: string, instanceId: string): Promise<number> {
    const { rows } = await this.pool.query<{ cursor: string }>(
      `INSERT INTO claude_a2a_event_subscribers (id, task_id, instance_id, cursor)
       SELECT $1, $2, $3, coalesce(max(n), 0) FROM claude_a2a_replay_events WHERE task_id = $2
       RETURNING cursor`,
      [id, taskId, instanceId],
    );
    return Number(rows[0]?.cursor ?? 0);
  }

  async read(
    subscriber: string,
    taskId: string,
    cursor: number,
    limit: number,
  ): Promise<RelayRow[]> {
    const { rows } = await this.pool.query<{ n: string; event: string; lag: number }>(
      `WITH ev AS (
         SELECT n, event,
                (extract(epoch from clock_timestamp()) * 1000 - at)::float8 / 1000 AS lag
           FROM claude_a2a_replay_events WHERE task_id = $1 AND n > $2 ORDER BY n LIMIT $3
       ), moved AS (
         UPDATE claude_a2a_event_subscribers SET cursor = (SELECT max(n) FROM ev), seen_at = now()
          WHERE id = $4 AND EXISTS (SELECT 1 FROM ev)
       )
       SELECT n, event, lag FROM ev ORDER BY n`,
      [taskId, cursor, limit, subscriber],
    );
    return rows.map((row) => ({
      seq: Number(row.n),
      event: StreamResponse.fromJSON(JSON.parse(row.event)),
      lag: row.lag,
    }));
  }

  async lastSeq(taskId: string): Promise<number> {
    await this.flushed();
    const { rows } = await this.pool.query<{ n: string }>(
      `SELECT coalesce(max(n), 0) AS n FROM claude_a2a_replay_events WHERE task_id = $1`,
      [taskId],
    );
    return Number(rows[0]?.n ?? 0);
  }

  pruneEvents(): Promise<number> {
    return Promise.resolve(0);
  }
}

/** `backend`, whose every write of events then wakes the fleet's subscribers of those tasks. */
export function notifying(backend: ReplayBackend, pool: pg.Pool, logger: Logger): ReplayBackend {
  return {
    async write(events, sends) {
      await backend.write(events, sends);
      if (events.length === 0) return;
      // After the rows committed: a woken subscriber finds them.
      await pool
        .query(`SELECT pg_notify($1, $2)`, [
          CHANNEL.events,
          notifyPayload(events.map((e) => e.taskId)),
        ])
        .catch((err: unknown) => logger.warn({ err }, "could not wake the relay's subscribers"));
    },
    read: (taskId, cursor) => backend.read(taskId, cursor),
    findSend: (scope, key) => backend.findSend(scope, key),
    prune: (cutoff) => backend.prune(cutoff),
  };
}
