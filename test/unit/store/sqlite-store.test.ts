import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { EVERY_OWNER_INDEXES } from "../../../src/store/every-owner.js";
import { openTaskStores } from "../../../src/store/task-stores.js";
import { storeTarget } from "../../support/session-map-targets.js";
import { storeBackendCases } from "../../support/store-cases.js";
import { useTempDir } from "../../support/unit/temp-dir.js";

const cwd = useTempDir("a2a-sqlite-");

storeBackendCases("SQLite", {
  config: () => ({ type: "sqlite", path: ".claude/claude-a2a.db", retainDays: 30 }),
  cwd: () => cwd(),
  persistent: true,
  sessionMap: storeTarget("sqlite"),
});

describe("SQLite task store file", () => {
  it("lives in <cwd()>/.claude/claude-a2a.db, in WAL mode, with the SDK's migration ledger", async () => {
    const stores = await openTaskStores({
      store: { type: "sqlite", path: ".claude/claude-a2a.db", retainDays: 30 },
      cwd: cwd(),
      logger: pino({ level: "silent" }),
    });
    await stores.close();
    const db = new BetterSqlite3(join(cwd(), ".claude", "claude-a2a.db"), { readonly: true });
    try {
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      const tables = db
        .prepare("select name from sqlite_master where type = 'table' order by name")
        .all()
        .map((r) => (r as { name: string }).name);
      expect(tables).toEqual(
        expect.arrayContaining([
          "tasks",
          "push_notification_configs",
          "a2a_tasks_migrations",
          "a2a_push_notification_configs_migrations",
        ]),
      );
    } finally {
      db.close();
    }
  });

  it("with operators, an operator's lookups and lists read through indexes; without, none is added", async () => {
    const file = join(cwd(), ".claude", "claude-a2a.db");
    const open = async (operators: boolean) => {
      const stores = await openTaskStores({
        store: { type: "sqlite", path: ".claude/claude-a2a.db", retainDays: 30 },
        cwd: cwd(),
        logger: pino({ level: "silent" }),
        operators,
      });
      await stores.close();
      return new BetterSqlite3(file, { readonly: true });
    };
    const indexes = (db: BetterSqlite3.Database) =>
      db
        .prepare("select name from sqlite_master where type = 'index' and tbl_name = 'tasks'")
        .all()
        .map((r) => (r as { name: string }).name);
    const plain = await open(false);
    try {
      expect(indexes(plain)).not.toContain(EVERY_OWNER_INDEXES.byId);
    } finally {
      plain.close();
    }
    const db = await open(true);
    try {
      expect(indexes(db)).toEqual(
        expect.arrayContaining([EVERY_OWNER_INDEXES.byId, EVERY_OWNER_INDEXES.byUpdate]),
      );
      const plan = (sql: string) =>
        db
          .prepare(`explain query plan ${sql}`)
          .all("", "t1")
          .map((r) => (r as { detail: string }).detail)
          .join("; ");
      // The statements SqlEveryOwner makes (Kysely's SQLite text).
      expect(plan('select "owner" from "tasks" where "tenant" = ? and "id" = ? limit 2')).toContain(
        EVERY_OWNER_INDEXES.byId,
      );
      const page = plan(
        'select "id" from "tasks" where "tenant" = ? and "id" <> ? ' +
          'order by "status_last_updated" desc, "id" desc limit 51',
      );
      expect(page).toContain(EVERY_OWNER_INDEXES.byUpdate);
      expect(page).not.toContain("TEMP B-TREE");
    } finally {
      db.close();
    }
  });

  it("a file that cannot be opened stops startup with a message naming it", async () => {
    await writeFile(join(cwd(), "not-a-dir"), "");
    await expect(
      openTaskStores({
        store: { type: "sqlite", path: "not-a-dir/x.db", retainDays: 30 },
        cwd: cwd(),
        logger: pino({ level: "silent" }),
      }),
    ).rejects.toThrow(`Cannot open the sqlite task store at ${join(cwd(), "not-a-dir", "x.db")}`);
  });
});
