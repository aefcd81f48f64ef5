/**
 * In-process, interleaved: the store's share of a GetTask and of a ListTasks by context (page of
 * 50), on 10,000 tasks of one caller in 200 contexts, through Kysely as before (the SDK's
 * `DatabaseTaskStore.load`; the same two list statements run through Kysely's `executeQuery`)
 * and as now (`SqliteTaskStore`: prepared statements on the connection). Prints the median
 * time per read of each, measured in the same run.
 *
 *   npx tsx bench/micro/store-reads.ts [rounds=9] [reads per round=2000]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { TaskState, type ListTasksRequest, type Task } from "@a2a-js/sdk";
import { ServerCallContext } from "@a2a-js/sdk/server";
import { DatabaseTaskStore } from "@a2a-js/sdk/server/database";
import { CompiledQuery } from "kysely";
import { pino } from "pino";
import { agentMessage, artifact, textPart } from "../../src/contract/messages.js";
import { CallerUser } from "../../src/identity/caller.js";
import { openDatabase } from "../../src/store/database.js";
import {
  listQueries,
  ownerOf,
  SqliteTaskStore,
  taskPage,
  type PageRow,
} from "../../src/store/sqlite-task-list.js";
import { median } from "../stats.js";

const [rounds = 9, reads = 2000] = process.argv.slice(2).map(Number);
const context = new ServerCallContext({ user: new CallerUser({ kind: "login", login: "bench" }) });
const logger = pino({ level: "silent" });
const TASKS = 10_000;
const PAGE = 50;

function seededTask(id: string, contextId: string, at: Date): Task {
  const ref = { taskId: id, contextId };
  const answer = "A seeded answer of a typical length for the store benchmark. ".repeat(8);
  return {
    id,
    contextId,
    status: {
      state: TaskState.TASK_STATE_COMPLETED,
      message: agentMessage(ref, [textPart(answer)]),
      timestamp: at.toISOString(),
    },
    history: [
      agentMessage(ref, [textPart("A seeded prompt")]),
      agentMessage(ref, [textPart(answer)]),
    ],
    artifacts: [artifact("response", "response", [textPart(answer)], {})],
    metadata: {},
  };
}

const listParams = (contextId: string): ListTasksRequest => ({
  tenant: "",
  contextId,
  status: TaskState.TASK_STATE_UNSPECIFIED,
  pageSize: PAGE,
  pageToken: "",
  historyLength: undefined,
  statusTimestampAfter: undefined,
  includeArtifacts: undefined,
});

const dir = mkdtempSync(join(tmpdir(), "bench-store-reads-"));
try {
  const { db, statements } = await openDatabase({ type: "sqlite", file: join(dir, "tasks.db") });
  const sdk = new DatabaseTaskStore(db);
  const ids: string[] = [];
  const contexts: string[] = [];
  const base = Date.now() - TASKS * 1000;
  await db.transaction().execute(async (trx) => {
    const store = new DatabaseTaskStore(trx);
    for (let i = 0; i < TASKS; i++) {
      if (i % PAGE === 0) contexts.push(crypto.randomUUID());
      const id = crypto.randomUUID();
      ids.push(id);
      await store.save(
        seededTask(id, contexts.at(-1) as string, new Date(base + i * 1000)),
        context,
      );
    }
  });
  /** ListTasks as it was: the same two statements, through Kysely's executeQuery. */
  const kyselyList = async (params: ListTasksRequest) => {
    const q = listQueries({ tenant: "", owner: ownerOf(context) }, params);
    const counted = await db.executeQuery<{ total: number }>(
      CompiledQuery.raw(q.count.sql, [...q.count.parameters]),
    );
    const rows = (
      await db.executeQuery<PageRow>(CompiledQuery.raw(q.page.sql, [...q.page.parameters]))
    ).rows;
    return taskPage({ rows, pageSize: q.pageSize, total: counted.rows[0]?.total, logger });
  };
  const ours = new SqliteTaskStore(db, statements, logger);
  const variants = {
    "GetTask, Kysely (before)": (i: number) => sdk.load(ids[(i * 7919) % TASKS] as string, context),
    "GetTask, prepared (now)": (i: number) => ours.load(ids[(i * 7919) % TASKS] as string, context),
    "ListTasks, Kysely (before)": (i: number) =>
      kyselyList(listParams(contexts[i % contexts.length] as string)),
    "ListTasks, prepared (now)": (i: number) =>
      ours.list(listParams(contexts[i % contexts.length] as string), context),
  };
  const times = new Map<string, number[]>(Object.keys(variants).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    const order = Object.entries(variants);
    if (r % 2 === 1) order.reverse();
    for (const [name, read] of order) {
      const n = name.startsWith("List") ? reads / 10 : reads;
      const start = performance.now();
      for (let i = 0; i < n; i++) await read(i + r * n);
      times.get(name)?.push(((performance.now() - start) * 1000) / n);
    }
  }
  for (const [name, t] of times)
    console.log(`${name.padEnd(28)} ${median(t).toFixed(1)} µs a read`);
  await db.destroy();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
