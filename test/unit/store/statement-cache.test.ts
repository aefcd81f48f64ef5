import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cachingConnection } from "../../../src/store/statement-cache.js";

let connection: BetterSqlite3.Database | undefined;
afterEach(() => {
  if (connection?.open) connection.close();
  connection = undefined;
});

function open() {
  connection = new BetterSqlite3(":memory:");
  connection.exec("create table t (id integer primary key, v text)");
  const prepare = vi.spyOn(connection, "prepare");
  return { connection, prepare, cached: cachingConnection(connection) };
}

describe("cachingConnection", () => {
  it("prepares each distinct SQL text once, and the reused statement gives each call's rows", () => {
    const { prepare, cached } = open();
    const insert = "insert into t (v) values (?)";
    for (const v of ["a", "b", "c"]) cached.prepare(insert).run([v]);
    const select = "select v from t where id = ?";
    expect(cached.prepare(select).all([1])).toEqual([{ v: "a" }]);
    expect(cached.prepare(select).all([3])).toEqual([{ v: "c" }]);
    expect(prepare).toHaveBeenCalledTimes(2);
  });

  it("gives a fresh statement while the cached one is still iterating", () => {
    const { prepare, cached } = open();
    cached.prepare("insert into t (v) values ('x'), ('y')").run([]);
    const select = "select v from t order by id";
    const outer = cached.prepare(select).iterate([]);
    const first = outer.next();
    // The cached statement is busy: a second use mid-iteration must not disturb it.
    expect(cached.prepare(select).all([])).toEqual([{ v: "x" }, { v: "y" }]);
    expect(first.value).toEqual({ v: "x" });
    expect(outer.next().value).toEqual({ v: "y" });
    expect(outer.next().done).toBe(true);
    expect(prepare).toHaveBeenCalledTimes(3);
  });

  it("serves Kysely queries, closing the connection with the database", async () => {
    const { connection: raw, cached } = open();
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: cached }) });
    for (let i = 0; i < 3; i++) await sql`insert into t (v) values (${`k${i}`})`.execute(db);
    const rows = await sql<{ n: number }>`select count(*) as n from t`.execute(db);
    expect(rows.rows[0]?.n).toBe(3);
    await db.destroy();
    expect(raw.open).toBe(false);
  });
});
