import pg from "pg";

/**
 * Several workspaces on one PostgreSQL database: each keeps its tables in a schema of its own,
 * so a task id, a push config or a ListTasks of one never meets another's, and every table
 * (the SDK's and ours) is scoped without a column or a query of its own. The schema is chosen by
 * the connection's `search_path` (the URL's `options`), which every connection of the
 * migrations and of the store then uses.
 */

/** The schema of a workspace: its name (lowercase, digits, hyphens) made an identifier. Pure. */
export const workspaceSchema = (workspace: string): string =>
  `claude_a2a_${workspace.replace(/-/g, "_")}`;

/**
 * The URL whose connections use `schema` alone (before any `options` the URL already has, whose
 * own `search_path` would win otherwise). Pure.
 */
export function scopedUrl(url: string, schema: string): string {
  const parsed = new URL(url);
  const existing = parsed.searchParams.get("options");
  const setting = `-c search_path=${schema}`;
  parsed.searchParams.set("options", existing ? `${existing} ${setting}` : setting);
  return parsed.toString();
}

/** Creates the schema if it is missing (the migrations need it to exist). */
export async function ensureSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } finally {
    await client.end();
  }
}
