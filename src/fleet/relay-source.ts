import { StreamResponse } from "@a2a-js/sdk";
import type { AgentExecutionEvent } from "@a2a-js/sdk/server";
import type pg from "pg";
import type { Logger } from "pino";
import { streamResponseOf } from "../a2a/channel/task-channel.js";
import { CHANNEL } from "./tables.js";

/** NOTIFY payloads stay far below PostgreSQL's 8,000 bytes: a longer list just wakes everyone. */
const MAX_NOTIFY_PAYLOAD = 4_000;

/** One stored event as a subscriber reads it: its cursor position, the event, its age (s). */
export interface RelayRow {
  readonly seq: number;
  readonly event: StreamResponse;
  readonly lag: number;
}

/**
 * Where the events a fleet relays are stored and read from (docs/storage.md "Several servers").
 * With `replay.enabled` (the default) that is the replay table the task's numbered events are
 * kept in anyway (`ReplayTableSource`): one write of each event serves both. Without it, the
 * fleet's own `claude_a2a_task_events` (`OwnTableSource`).
 */
export interface RelaySource {
  /** Owner side: an event of a task this instance runs, to store (nothing when kept already). */
  append(taskId: string, event: AgentExecutionEvent): void;
  /** Resolves once everything appended so far is written. */
  flushed(): Promise<void>;
  /** Registers subscriber `id` of `taskId` at the newest stored event: its cursor. */
  subscribe(id: string, taskId: string, instanceId: string): Promise<number>;
  /** The events after `cursor` (at most `limit`), the subscriber's cursor moved past them. */
  read(subscriber: string, taskId: string, cursor: number, limit: number): Promise<RelayRow[]>;
  /** The newest stored event's position (0: none), once what was appended is written. */
  lastSeq(taskId: string): Promise<number>;
  /** Deletes relayed events no subscriber needs (cutoffs: epoch ms); returns how many. */
  pruneEvents(cutoffs: { read: number; any: number }): Promise<number>;
}

/** The wire payload of an event the SDK's subscribers see (messages are not part of a task's stream). */
export function relayedPayload(event: AgentExecutionEvent): StreamResponse | undefined {
  return event.kind === "message" ? undefined : streamResponseOf(event);
}

/** The NOTIFY payload naming these tasks ("" wakes every subscriber). Pure. */
export function notifyPayload(taskIds: readonly string[]): string {
  const tasks = [...new Set(taskIds)].join(",");
  return tasks.length > MAX_NOTIFY_PAYLOAD ? "" : tasks;
}

interface Pending {
  readonly taskId: string;
  readonly json: string;
}

/** The fleet's own events table: one writer, a batch per round trip, one NOTIFY per batch. */
export class OwnTableSource implements RelaySource {
  private queue: Pending[] = [];
  private writing: Promise<void> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
  ) {}

  append(taskId: string, event: AgentExecutionEvent): void {
    const relayed = relayedPayload(event);
    if (relayed === undefined) return;
    this.queue.push({ taskId, json: JSON.stringify(StreamResponse.toJSON(relayed)) });
    this.writing ??= this.writeLoop();
  }

  async flushed(): Promise<void> {
    while (this.writing !== undefined) await this.writing;
  }

  private async writeLoop(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        await this.write(batch).catch((err: unknown) => {
          this.logger.error({ err, events: batch.length }, "could not relay task events");
        });
      }
    } finally {
      this.writing = undefined;
    }
  }

  private async write(batch: readonly Pending[]): Promise<void> {
    // One statement: the rows and the wake-up commit together (NOTIFY is sent on commit).
    await this.pool.query(
      `WITH rows AS (
         INSERT INTO claude_a2a_task_events (task_id, event)
         SELECT * FROM unnest($1::text[], $2::jsonb[]) RETURNING 1
       )
       SELECT pg_notify($3, $4) FROM (SELECT count(*) FROM rows) c`,
      [
        batch.map((p) => p.taskId),
        batch.map((p) => p.json),
        CHANNEL.events,
        notifyPayload(batch.map((p) => p.taskId)),
      ],
    );
  }

  async subscribe(id: string, taskId: string, instanceId: string): Promise<number> {
    const { rows } = await this.pool.query<{ cursor: string }>(
      `INSERT INTO claude_a2a_event_subscribers (id, task_id, instance_id, cursor)
       SELECT $1, $2, $3, coalesce(max(seq), 0) FROM claude_a2a_task_events WHERE task_id = $2
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
    // One round trip: the rows, and the subscriber's cursor moved past them (for pruning).
    const { rows } = await this.pool.query<{ seq: string; event: unknown; lag: number }>(
      `WITH ev AS (
         SELECT seq, event, extract(epoch from clock_timestamp() - created_at)::float8 AS lag
           FROM claude_a2a_task_events WHERE task_id = $1 AND seq > $2 ORDER BY seq LIMIT $3
       ), moved AS (
         UPDATE claude_a2a_event_subscribers SET cursor = (SELECT max(seq) FROM ev), seen_at = now()
          WHERE id = $4 AND EXISTS (SELECT 1 FROM ev)
       )
       SELECT seq, event, lag FROM ev ORDER BY seq`,
      [taskId, cursor, limit, subscriber],
    );
    return rows.map((row) => ({
      seq: Number(row.seq),
      event: StreamResponse.fromJSON(row.event),
      lag: row.lag,
    }));
  }

  async lastSeq(taskId: string): Promise<number> {
    await this.flushed();
    const { rows } = await this.pool.query<{ seq: string }>(
      `SELECT coalesce(max(seq), 0) AS seq FROM claude_a2a_task_events WHERE task_id = $1`,
      [taskId],
    );
    return Number(rows[0]?.seq ?? 0);
  }

  async pruneEvents(cutoffs: { read: number; any: number }): Promise<number> {
    const deleted = await this.pool.query(
      `DELETE FROM claude_a2a_task_events e
        WHERE e.created_at < to_timestamp($2::float8 / 1000)
           OR (e.created_at < to_timestamp($1::float8 / 1000) AND NOT EXISTS (SELECT 1 FROM claude_a2a_event_subscribers s
                 WHERE s.task_id = e.task_id AND s.cursor < e.seq))`,
      [cutoffs.read, cutoffs.any],
    );
    return deleted.rowCount ?? 0;
  }
}
