import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTaskStores } from "../../../src/store/task-stores.js";
import { describeCallerUsageContract } from "./caller-usage-contract.js";
import { describeStoreContract } from "./store-contract.js";

let cwd = "";
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "a2a-sqlite-"));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describeStoreContract("SQLite", {
  config: () => ({ type: "sqlite", path: ".claude/claude-a2a.db", retainDays: 30 }),
  cwd: () => cwd,
});
describeCallerUsageContract("SQLite", {
  config: () => ({ type: "sqlite", path: ".claude/claude-a2a.db", retainDays: 30 }),
  cwd: () => cwd,
});

describe("SQLite task store file", () => {
  it("lives in <cwd>/.claude/claude-a2a.db, in WAL mode, with the SDK's migration ledger", async () => {
    const stores = await openTaskStores({
      store: { type: "sqlite", path: ".claude/claude-a2a.db", retainDays: 30 },
      cwd,
      logger: pino({ level: "silent" }),
    });
    await stores.close();
    const db = new BetterSqlite3(join(cwd, ".claude", "claude-a2a.db"), { readonly: true });
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

  it("a file that cannot be opened stops startup with a message naming it", async () => {
    await writeFile(join(cwd, "not-a-dir"), "");
    await expect(
      openTaskStores({
        store: { type: "sqlite", path: "not-a-dir/x.db", retainDays: 30 },
        cwd,
        logger: pino({ level: "silent" }),
      }),
    ).rejects.toThrow(`Cannot open the sqlite task store at ${join(cwd, "not-a-dir", "x.db")}`);
  });
});
