import type pg from "pg";

/**
 * The fleet's tables, beside the SDK's in the same PostgreSQL database:
 * - `claude_a2a_instances`: one row per instance id, its lease (`lease_until`, database clock);
 * - `claude_a2a_task_owners`: the instance that runs each unfinished task;
 * - `claude_a2a_task_events`: every event an owner publishes, for subscribers on other instances
 *   (NOTIFY only wakes them; this table is the truth);
 * - `claude_a2a_event_subscribers`: who reads a task's events elsewhere, and how far they are;
 * - `claude_a2a_commands`: a cancel or an answer another instance forwards to a task's owner, and
 *   the owner's reply.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS claude_a2a_instances (
  id text PRIMARY KEY,
  incarnation text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  renewed_at timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS claude_a2a_task_owners (
  task_id text PRIMARY KEY,
  instance_id text NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS claude_a2a_task_owners_instance ON claude_a2a_task_owners (instance_id);
CREATE TABLE IF NOT EXISTS claude_a2a_task_events (
  seq bigserial PRIMARY KEY,
  task_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  event jsonb NOT NULL
);
CREATE INDEX IF NOT EXISTS claude_a2a_task_events_task ON claude_a2a_task_events (task_id, seq);
CREATE INDEX IF NOT EXISTS claude_a2a_task_events_created ON claude_a2a_task_events (created_at);
CREATE TABLE IF NOT EXISTS claude_a2a_event_subscribers (
  id text PRIMARY KEY,
  task_id text NOT NULL,
  instance_id text NOT NULL,
  cursor bigint NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS claude_a2a_event_subscribers_task ON claude_a2a_event_subscribers (task_id);
CREATE TABLE IF NOT EXISTS claude_a2a_commands (
  id bigserial PRIMARY KEY,
  target text NOT NULL,
  task_id text NOT NULL,
  kind text NOT NULL,
  request jsonb NOT NULL,
  caller jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  taken_at timestamptz,
  replied_at timestamptz,
  reply jsonb
);
CREATE INDEX IF NOT EXISTS claude_a2a_commands_target ON claude_a2a_commands (target, id);
`;

/** Any constant: two servers starting at once create the tables one after the other. */
const MIGRATION_LOCK = 0x636c6661;

/** The NOTIFY channels: payloads are only hints, what they announce is read from the tables. */
export const CHANNEL = {
  events: "claude_a2a_events",
  commands: "claude_a2a_commands",
  replies: "claude_a2a_replies",
} as const;

/** Creates the fleet's tables if they do not exist yet. */
export async function migrateFleet(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query(SCHEMA);
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Epoch milliseconds of a `timestamptz`, as a select expression. */
export const epochMs = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;
