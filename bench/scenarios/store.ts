/**
 * Store: GetTask and ListTasks (page of 50, filtered by context) per second over HTTP, with
 * `storeTasks` tasks in the server's default store (SQLite), `storeLoops` client loops at once.
 * Baseline: the same loops on `GET /healthz`, the floor HTTP alone sets on this machine.
 * Phases interleave (healthz, GetTask, ListTasks, healthz, ...).
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { TaskState, type Task } from "@a2a-js/sdk";
import { ServerCallContext } from "@a2a-js/sdk/server";
import { DatabaseTaskStore } from "@a2a-js/sdk/server/database";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { KIND } from "../../src/contract/kinds.js";
import { agentMessage, artifact, textPart } from "../../src/contract/messages.js";
import { DEFAULT_SQLITE_PATH } from "../../src/config/schema.js";
import { openDatabase } from "../../src/store/database.js";
import { userMessage } from "../../test/support/a2a/harness.js";
import { blockingTurn } from "../a2a.js";
import type { Plan } from "../plan.js";
import { cpuTimeMs, runQueueWaitMs } from "../proc.js";
import { TURN_PROMPT, type Rig } from "../rig.js";
import type { Row } from "../stats.js";
import { seedBulk } from "./store-bulk.js";
import { opsFor, storeRows, type OpName, type Seeded } from "./store-rows.js";

const PAGE = 50;
const OWNER_KEY = "bench-owner";

interface Scope {
  readonly tenant: string;
  readonly owner: string;
}

/** The (tenant, owner) the server gives this client's tasks, read from a real task of its own. */
async function clientScope(rig: Rig): Promise<Scope> {
  const { contextId } = await blockingTurn(rig.client, TURN_PROMPT);
  const connection = new BetterSqlite3(join(rig.serverSandbox.cwd, DEFAULT_SQLITE_PATH));
  try {
    connection.pragma("busy_timeout = 5000");
    const scope = connection
      .prepare<[string], Scope>("select tenant, owner from tasks where context_id = ? limit 1")
      .get(contextId);
    if (scope === undefined) throw new Error("store: the server's task is not in its SQLite file");
    return scope;
  } finally {
    connection.close();
  }
}

/**
 * Writes `count` completed tasks, `PAGE` per context, for the same (tenant, owner) the server gave
 * a real task of this client: the seeded tasks are the client's own, whatever the caller scheme.
 */
async function seed(file: string, scope: Scope, count: number): Promise<Seeded> {
  const connection = new BetterSqlite3(file);
  connection.pragma("busy_timeout = 5000");
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: connection }) });
  const context = new ServerCallContext({
    tenant: scope.tenant,
    state: new Map([[OWNER_KEY, scope.owner]]),
  });
  const ids: string[] = [];
  const contexts: string[] = [];
  const base = Date.now() - count * 1000;
  try {
    await db.transaction().execute(async (trx) => {
      const store = new DatabaseTaskStore(trx, {
        ownerResolver: (c) => c.state.get(OWNER_KEY) as string,
      });
      for (let i = 0; i < count; i++) {
        if (i % PAGE === 0) contexts.push(crypto.randomUUID());
        const ref = { taskId: crypto.randomUUID(), contextId: contexts.at(-1) as string };
        ids.push(ref.taskId);
        await store.save(seededTask(ref, new Date(base + i * 1000)), context);
      }
    });
  } finally {
    await db.destroy();
  }
  return { ids, contexts };
}

/** A finished task of a typical size: a prompt, an answer, and the answer's artifact. */
function seededTask(ref: { taskId: string; contextId: string }, at: Date): Task {
  const answer = "A seeded answer of a typical length for the store benchmark. ".repeat(8);
  return {
    id: ref.taskId,
    contextId: ref.contextId,
    status: {
      state: TaskState.TASK_STATE_COMPLETED,
      message: agentMessage(ref, [textPart(answer)]),
      timestamp: at.toISOString(),
    },
    history: [userMessage("A seeded prompt", ref), agentMessage(ref, [textPart(answer)])],
    artifacts: [artifact("response", "response", [textPart(answer)], { kind: KIND.assistantText })],
    metadata: {},
  };
}

/** `loops` concurrent loops calling `op` for `seconds`; operations per second and errors. */
async function load(
  loops: number,
  seconds: number,
  op: () => Promise<boolean>,
): Promise<{ rate: number; errors: number; seconds: number }> {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  let errors = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: loops }, async () => {
      while (performance.now() < end) {
        const ok = await op().catch(() => false);
        done++;
        if (!ok) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  return { rate: done / elapsed, errors, seconds: elapsed };
}

/**
 * Another server whose database holds the client's `own` tasks and `bulk` tasks of other callers
 * (`store-bulk.ts`), seeded before it starts, so its startup runs over all of them.
 */
async function bulkServer(
  rig: Rig,
  scope: Scope,
  own: number,
  bulk: number,
  log: (s: string) => void,
) {
  let seeded: Seeded = { ids: [], contexts: [] };
  const server = await rig.extraServer({}, async (cwd) => {
    const file = join(cwd, DEFAULT_SQLITE_PATH);
    const began = performance.now();
    await (await openDatabase({ type: "sqlite", file })).db.destroy();
    seeded = await seed(file, scope, own);
    const connection = new BetterSqlite3(file);
    try {
      connection.pragma("journal_mode = WAL");
      seedBulk(connection, {
        count: bulk,
        callers: 1_000,
        tenant: scope.tenant,
        now: Date.now(),
      });
    } finally {
      connection.close();
    }
    log(
      `store: ${(own + bulk).toLocaleString("en-US")} tasks seeded in ${((performance.now() - began) / 1000).toFixed(1)} s`,
    );
  });
  log(`store: that server started in ${(server.startMs / 1000).toFixed(1)} s`);
  return { server, seeded };
}

interface Phase {
  readonly key: string;
  readonly pid: number;
  readonly op: () => Promise<boolean>;
}

export async function store(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const began = performance.now();
  const scope = await clientScope(rig);
  const seeded = await seed(
    join(rig.serverSandbox.cwd, DEFAULT_SQLITE_PATH),
    scope,
    plan.storeTasks,
  );
  log(
    `store: ${plan.storeTasks} tasks seeded in ${((performance.now() - began) / 1000).toFixed(1)} s`,
  );
  const bulk =
    plan.storeBulkTasks > plan.storeTasks
      ? await bulkServer(rig, scope, plan.storeTasks, plan.storeBulkTasks - plan.storeTasks, log)
      : undefined;
  try {
    const ops = opsFor(rig.server.url, seeded);
    const phases: Phase[] = (["healthz", "getTask", "listTasks"] as OpName[]).flatMap((name) => [
      { key: name, pid: rig.server.pid, op: ops[name] },
      ...(bulk === undefined || name === "healthz"
        ? []
        : [
            {
              key: `${name}@bulk`,
              pid: bulk.server.server.pid,
              op: opsFor(bulk.server.server.url, bulk.seeded)[name],
            },
          ]),
    ]);
    const rates = new Map<string, number[]>(phases.map((p) => [p.key, []]));
    // How busy the server's one thread was: near 100 % means the server, not the client, limits.
    const busy = new Map<string, number[]>(phases.map((p) => [p.key, []]));
    const waiting = new Map<string, number[]>(phases.map((p) => [p.key, []]));
    // A short warm-up of each, unmeasured.
    for (const p of phases) await load(plan.storeLoops, 0.5, p.op);
    for (let round = 0; round < plan.storePhases; round++) {
      for (const p of phases) {
        const cpu = await cpuTimeMs(p.pid);
        const queued = await runQueueWaitMs(p.pid);
        const r = await load(plan.storeLoops, plan.storePhaseSeconds, p.op);
        busy.get(p.key)?.push(((await cpuTimeMs(p.pid)) - cpu) / (r.seconds * 10));
        waiting.get(p.key)?.push(((await runQueueWaitMs(p.pid)) - queued) / (r.seconds * 10));
        if (r.errors > 0) log(`store: ${r.errors} ${p.key} call(s) failed or answered wrong`);
        rates.get(p.key)?.push(r.rate);
      }
    }
    return storeRows(plan, rates, busy, waiting, bulk?.server.startMs);
  } finally {
    await bulk?.server.close();
  }
}
