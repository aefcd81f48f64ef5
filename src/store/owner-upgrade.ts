import { PUSH_NOTIFICATION_TABLE, TASK_TABLE } from "@a2a-js/sdk/server/database";
import { sql, type Kysely } from "kysely";
import type { Logger } from "pino";
import { ANONYMOUS_OWNER, SCOPE_PREFIXES } from "../identity/caller.js";

type Tables = Record<string, Record<string, unknown>>;

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
  const db = database as unknown as Kysely<Tables>;
  let moved = 0;
  for (const table of [TASK_TABLE, PUSH_NOTIFICATION_TABLE]) {
    let update = db
      .updateTable(table)
      .set({ owner: sql<string>`'login:' || owner` })
      .where("owner", "<>", ANONYMOUS_OWNER);
    // Every scope of today's prefixes is left alone: an `oidc:` subject is not a bare login.
    for (const prefix of SCOPE_PREFIXES) update = update.where("owner", "not like", `${prefix}%`);
    const result = await update.executeTakeFirst();
    moved += Number(result.numUpdatedRows);
  }
  if (moved > 0) logger.info({ rows: moved }, "store: login scopes upgraded to login:<login>");
  return moved;
}
