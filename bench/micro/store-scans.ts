/**
 * In-process, on a SQLite store of 1,000,000 tasks (`store-bulk.ts`; built once under `dir`):
 * the server's queries over every caller's tasks, with and without the state index
 * (`src/store/task-indexes.ts`), alternated in the same run: restart recovery's unfinished tasks,
 * retention's expired ones, the per-state counts of `/metrics`, and the whole `openTaskStores`.
 *
 *   npx tsx bench/micro/store-scans.ts [dir=/tmp/bench-store-scans] [rounds=3]
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import BetterSqlite3 from "better-sqlite3";
import { pino } from "pino";
import { DEFAULT_SQLITE_PATH } from "../../src/config/schema.js";
import { openDatabase } from "../../src/store/database.js";
import { STATE_INDEX } from "../../src/store/task-indexes.js";
import { TaskTable } from "../../src/store/task-table.js";
import { openTaskStores } from "../../src/store/task-stores.js";
import { seedBulk } from "../scenarios/store-bulk.js";
import { median } from "../stats.js";

const [dir = "/tmp/bench-store-scans", roundsArg = "3"] = process.argv.slice(2);
const file = join(dir, DEFAULT_SQLITE_PATH);
const logger = pino({ level: "silent" });

if (!existsSync(file)) {
  const began = performance.now();
  await (await openDatabase({ type: "sqlite", file })).db.destroy();
  const connection = new BetterSqlite3(file);
  connection.pragma("journal_mode = WAL");
  seedBulk(connection, {
    count: 1_000_000,
    callers: 1_000,
    tenant: "",
    now: Date.now(),
  });
  connection.close();
  process.stdout.write(
    `seeded 1,000,000 tasks in ${((performance.now() - began) / 1000).toFixed(0)} s\n`,
  );
}

const time = async (f: () => Promise<unknown>): Promise<number> => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};
const figures: Record<string, Record<"without" | "with", number[]>> = {};
const note = (what: string, variant: "without" | "with", ms: number) => {
  (figures[what] ??= { without: [], with: [] })[variant].push(ms);
};
for (let round = 0; round < Number(roundsArg); round++) {
  for (const variant of round % 2 === 0
    ? (["without", "with"] as const)
    : (["with", "without"] as const)) {
    const connection = new BetterSqlite3(file);
    connection.exec(
      variant === "with"
        ? `create index if not exists ${STATE_INDEX} on tasks (status_state, status_last_updated)`
        : `drop index if exists ${STATE_INDEX}`,
    );
    connection.close();
    const { db } = await openDatabase({ type: "sqlite", file });
    const table = new TaskTable(db);
    note("recovery: unfinished tasks", variant, await time(() => table.unfinished()));
    note(
      "retention: expired tasks",
      variant,
      await time(() => table.terminalBefore(Date.now() - 30 * 86_400_000)),
    );
    note("/metrics: tasks by state", variant, await time(() => table.countByState()));
    await db.destroy();
    if (variant === "with") {
      let stores: Awaited<ReturnType<typeof openTaskStores>> | undefined;
      const ms = await time(async () => {
        stores = await openTaskStores({
          store: { type: "sqlite", path: DEFAULT_SQLITE_PATH, retainDays: 30 },
          cwd: dir,
          logger,
        });
      });
      note("openTaskStores (with the index)", variant, ms);
      await stores?.close();
    }
  }
}
for (const [what, f] of Object.entries(figures)) {
  const w = median(f.without);
  const i = median(f.with);
  process.stdout.write(
    `${what.padEnd(34)} without the index ${Number.isNaN(w) ? "–" : `${w.toFixed(1)} ms`}, with it ${i.toFixed(1)} ms\n`,
  );
}
