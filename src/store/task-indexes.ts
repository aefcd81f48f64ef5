import { TASK_TABLE } from "@a2a-js/sdk/server/database";
import { sql, type Kysely } from "kysely";

/** Our index beside the SDK's: by state, then last status change. */
export const STATE_INDEX = "claude_a2a_tasks_state_updated_idx";

/**
 * The index the server's own queries over every caller's tasks need, which the SDK's migrations
 * (indexes by caller scope only) do not create: restart recovery (tasks in an unfinished state),
 * retention (terminal tasks last changed before a date) and the per-state counts of `/metrics`
 * each scanned the whole table, rows and payloads, at every start or scrape; with a month of
 * tasks (1,000,000 in the benchmark) that is seconds. Now the first two search this index and the
 * counts read it alone. Created once (`if not exists`, SQLite and PostgreSQL alike).
 */
export async function ensureTaskIndexes(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists ${sql.raw(STATE_INDEX)} on ${sql.table(TASK_TABLE)} (status_state, status_last_updated)`.execute(
    db,
  );
}
