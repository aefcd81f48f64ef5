/**
 * The places a session map is kept, as targets of `sessionMapCases`: the memory store's file of
 * its own, and the task store's database (SQLite, or PostgreSQL at a URL the test makes).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { sql, type Kysely } from "kysely";
import { openDatabase } from "../../src/store/database.js";
import { openLocalSessionMap, openStoreSessionMap } from "../../src/store/open-session-map.js";
import { SESSIONS_DB_FILE, type SessionMap } from "../../src/store/session-map.js";
import type { MapOpenOptions, SessionMapTarget } from "./session-map-cases.js";

const TABLE = "claude_a2a_sessions";
const silent = { warn: () => undefined };

/** Triggers that make every write of `key`'s row fail (SQLite). */
const sqliteFailures = (key: string): string[] => {
  const lit = `'${key.replace(/'/g, "''")}'`;
  const name = key.replace(/\W/g, "_");
  return [
    `CREATE TRIGGER fail_ins_${name} BEFORE INSERT ON ${TABLE} WHEN new.conversation = ${lit} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
    `CREATE TRIGGER fail_upd_${name} BEFORE UPDATE ON ${TABLE} WHEN new.conversation = ${lit} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
    `CREATE TRIGGER fail_del_${name} BEFORE DELETE ON ${TABLE} WHEN old.conversation = ${lit} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
  ];
};

/** The same on PostgreSQL: one function, one trigger. */
const postgresFailures = (key: string): string[] => {
  const lit = `'${key.replace(/'/g, "''")}'`;
  return [
    `CREATE FUNCTION fail_writes() RETURNS trigger AS $$ BEGIN
       IF TG_OP = 'DELETE' THEN
         IF OLD.conversation = ${lit} THEN RAISE EXCEPTION 'injected failure'; END IF;
         RETURN OLD;
       END IF;
       IF NEW.conversation = ${lit} THEN RAISE EXCEPTION 'injected failure'; END IF;
       RETURN NEW;
     END $$ LANGUAGE plpgsql`,
    `CREATE TRIGGER fail_writes BEFORE INSERT OR UPDATE OR DELETE ON ${TABLE}
       FOR EACH ROW EXECUTE FUNCTION fail_writes()`,
  ];
};

/** The memory store's map: a SQLite file in the workspace's `.claude/`. */
export function localTarget(): SessionMapTarget {
  let cwd = "";
  let maps: SessionMap[] = [];
  return {
    instances: false,
    cwd: () => cwd,
    async setup() {
      cwd = await mkdtemp(join(tmpdir(), "map-local-"));
    },
    async teardown() {
      await Promise.all(maps.map((m) => m.close().catch(() => undefined)));
      maps = [];
      await rm(cwd, { recursive: true, force: true });
    },
    async open(o: MapOpenOptions = {}) {
      const map = await openLocalSessionMap({
        cwd,
        logger: o.logger ?? silent,
        ...(o.upgradeKey && { upgradeKey: o.upgradeKey }),
      });
      maps.push(map);
      return map;
    },
    failWritesOf(key) {
      const db = new BetterSqlite3(join(cwd, SESSIONS_DB_FILE));
      try {
        for (const statement of sqliteFailures(key)) db.exec(statement);
      } finally {
        db.close();
      }
      return Promise.resolve();
    },
  };
}

/** The map in a task store's database: SQLite in the workspace, or PostgreSQL at `url()`. */
export function storeTarget(
  type: "sqlite" | "postgres",
  url?: () => Promise<string>,
): SessionMapTarget {
  let cwd = "";
  let db: Kysely<unknown> | undefined;
  let maps: SessionMap[] = [];
  const current = () => {
    if (db === undefined) throw new Error("no database");
    return db;
  };
  return {
    instances: true,
    cwd: () => cwd,
    async setup() {
      cwd = await mkdtemp(join(tmpdir(), `map-${type}-`));
      const database =
        type === "sqlite"
          ? await openDatabase({ type, file: join(cwd, ".claude", "claude-a2a.db") })
          : await openDatabase({ type, url: await (url as () => Promise<string>)() });
      db = database.db;
    },
    async teardown() {
      await Promise.all(maps.map((m) => m.close().catch(() => undefined)));
      maps = [];
      await db?.destroy();
      db = undefined;
      await rm(cwd, { recursive: true, force: true });
    },
    async open(o: MapOpenOptions = {}) {
      const map = await openStoreSessionMap({
        db: current(),
        type,
        instance: o.instance ?? "",
        cwd,
        logger: o.logger ?? silent,
        ...(o.upgradeKey && { upgradeKey: o.upgradeKey }),
      });
      maps.push(map);
      return map;
    },
    async failWritesOf(key) {
      const statements = type === "sqlite" ? sqliteFailures(key) : postgresFailures(key);
      for (const statement of statements) await sql.raw(statement).execute(current());
    },
  };
}
