import { PUSH_NOTIFICATION_TABLE, TASK_TABLE } from "@a2a-js/sdk/server/database";
import { sql, type Kysely } from "kysely";
import type { Logger } from "pino";
import { ANONYMOUS_OWNER, SCOPE_PREFIXES } from "../identity/caller.js";

/**
 * Rows written when a caller's scope was its bare Tailscale login (`ada@example.com`) move to
 * today's `login:ada@example.com`, so their callers keep their tasks and push configs. Only
 * logins existed then (tokens came with the prefixes), and the anonymous scope is unchanged, so
 * every unprefixed non-anonymous owner is a login; running it again changes nothing.
 */
export async function upgradeOwners(
  database: Kysely<unknown>,
  logger: Pick<Logger, "info">,
): Promise<number> {
  const db = database;
  let moved = 0;
  for (const [table, keys] of [
    [TASK_TABLE, ["tenant", "owner", "id"]],
    [PUSH_NOTIFICATION_TABLE, ["tenant", "owner", "task_id", "config_id"]],
  ] as const) {
    // Every scope of today's prefixes is left alone: an `oidc:` subject is not a bare login.
    const prefixed = SCOPE_PREFIXES.map((prefix) => sql`owner not like ${`${prefix}%`}`);
    const key = sql.join(keys.map((k) => sql.ref(k)));
    // The rows to move are found in the primary key's index (tenant, owner, ...), not by reading
    // every row with its payloads: this runs at every start, over a month of tasks.
    const result = await sql`
      update ${sql.table(table)} set owner = 'login:' || owner
      where (${key}) in (
        select ${key} from ${sql.table(table)}
        where owner <> ${ANONYMOUS_OWNER} and ${sql.join(prefixed, sql` and `)}
      )`.execute(db);
    const updated = result.numAffectedRows ?? 0n;
    moved += Number(updated);
  }
  if (moved > 0) logger.info({ rows: moved }, "store: login scopes upgraded to login:<login>");
  return moved;
}
