import pg from "pg";

/**
 * Several workspaces on one PostgreSQL server: each keeps its tables in a database of its own,
 * `<database>_<workspace>` beside the configured one, so a task id, a push config or a ListTasks
 * of one never meets another's, and every table (the SDK's and ours) is scoped without a column
 * or a query of its own. (A schema each would not do: the migrations' introspection looks for
 * their ledger tables in every schema of the database.)
 */

/** The name of the workspace's database: the configured one's, then the workspace's. Pure. */
export const workspaceDatabase = (database: string, workspace: string): string =>
  `${database}_${workspace.replace(/-/g, "_")}`;

/** The configured URL's database name (PostgreSQL's default: the user's name). Pure. */
function databaseOf(url: URL): string {
  const path = decodeURIComponent(url.pathname.replace(/^\//, ""));
  return path !== "" ? path : decodeURIComponent(url.username) || "postgres";
}

/** The URL of the workspace's database: the configured one with its database replaced. Pure. */
export function scopedUrl(url: string, workspace: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(workspaceDatabase(databaseOf(parsed), workspace))}`;
  return parsed.toString();
}

/** PostgreSQL's `duplicate_database`: another server created it at the same moment. */
const DUPLICATE_DATABASE = "42P04";

/**
 * Creates the workspace's database if it is missing, connected to the configured one (the URL's
 * user needs CREATEDB for that; or create `<database>_<workspace>` beforehand). Returns its name.
 */
export async function ensureDatabase(url: string, workspace: string): Promise<string> {
  const name = workspaceDatabase(databaseOf(new URL(url)), workspace);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount === 0) {
      await client.query(`create database "${name.replace(/"/g, '""')}"`).catch((err: unknown) => {
        if ((err as { code?: unknown }).code !== DUPLICATE_DATABASE) throw err;
      });
    }
    return name;
  } finally {
    await client.end();
  }
}
