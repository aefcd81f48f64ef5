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
import { JSONRPC_PATH } from "../../src/a2a/contract/card.js";
import { KIND } from "../../src/a2a/contract/kinds.js";
import { agentMessage, artifact, textPart } from "../../src/a2a/contract/messages.js";
import { DEFAULT_SQLITE_PATH } from "../../src/config/schema.js";
import { userMessage } from "../../test/support/a2a/harness.js";
import { blockingTurn } from "../a2a.js";
import type { Plan } from "../plan.js";
import { cpuTimeMs, runQueueWaitMs } from "../proc.js";
import { TURN_PROMPT, type Rig } from "../rig.js";
import type { Row } from "../stats.js";

const PAGE = 50;
const OWNER_KEY = "bench-owner";

/**
 * Writes `count` completed tasks, `PAGE` per context, for the same (tenant, owner) the server gave
 * a real task of this client: the seeded tasks are the client's own, whatever the caller scheme.
 */
async function seed(rig: Rig, count: number): Promise<{ ids: string[]; contexts: string[] }> {
  const { contextId } = await blockingTurn(rig.client, TURN_PROMPT);
  const file = join(rig.serverSandbox.cwd, DEFAULT_SQLITE_PATH);
  const connection = new BetterSqlite3(file);
  connection.pragma("busy_timeout = 5000");
  const scope = connection
    .prepare<[string], { tenant: string; owner: string }>(
      "select tenant, owner from tasks where context_id = ? limit 1",
    )
    .get(contextId);
  if (scope === undefined) throw new Error("store: the server's task is not in its SQLite file");
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

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

export async function store(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const scenario = "store";
  const began = performance.now();
  const seeded = await seed(rig, plan.storeTasks);
  log(
    `store: ${plan.storeTasks} tasks seeded in ${((performance.now() - began) / 1000).toFixed(1)} s`,
  );
  const tasks = `${plan.storeTasks.toLocaleString("en-US")} tasks`;
  // Raw JSON-RPC over fetch, parsed but not decoded into SDK objects: the client's own cost stays
  // small, so the figures are the server's (the client shares the machine's two cores with it).
  const endpoint = `${rig.server.url}${JSONRPC_PATH}`;
  let nextId = 0;
  const rpc = async (method: string, params: Record<string, unknown>) => {
    const res = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++nextId, method, params }),
    });
    const body = (await res.json()) as { result?: { id?: string; tasks?: unknown[] } };
    return body.result;
  };
  const ops = {
    healthz: async () => {
      const res = await fetch(`${rig.server.url}/healthz`);
      await res.arrayBuffer();
      return res.ok;
    },
    getTask: async () => {
      const id = pick(seeded.ids);
      return (await rpc("GetTask", { id, historyLength: 0 }))?.id === id;
    },
    listTasks: async () => {
      const page = await rpc("ListTasks", { contextId: pick(seeded.contexts), pageSize: PAGE });
      return page?.tasks?.length === PAGE;
    },
  };
  const rates = { healthz: [] as number[], getTask: [] as number[], listTasks: [] as number[] };
  // How busy the server's one thread was: near 100 % means the server, not the client, limits.
  const busy = { healthz: [] as number[], getTask: [] as number[], listTasks: [] as number[] };
  const waiting = { healthz: [] as number[], getTask: [] as number[], listTasks: [] as number[] };
  // A short warm-up of each, unmeasured.
  for (const op of Object.values(ops)) await load(plan.storeLoops, 0.5, op);
  for (let phase = 0; phase < plan.storePhases; phase++) {
    for (const name of ["healthz", "getTask", "listTasks"] as const) {
      const cpu = await cpuTimeMs(rig.server.pid);
      const queued = await runQueueWaitMs(rig.server.pid);
      const r = await load(plan.storeLoops, plan.storePhaseSeconds, ops[name]);
      busy[name].push(((await cpuTimeMs(rig.server.pid)) - cpu) / (r.seconds * 10));
      waiting[name].push(((await runQueueWaitMs(rig.server.pid)) - queued) / (r.seconds * 10));
      if (r.errors > 0) log(`store: ${r.errors} ${name} call(s) failed or answered wrong`);
      rates[name].push(r.rate);
    }
  }
  const group = `${tasks}, ${plan.storeLoops} loops`;
  return [
    {
      scenario,
      group,
      variant: "GET /healthz",
      unit: "/s",
      samples: rates.healthz,
      baseline: true,
    },
    {
      scenario,
      group,
      variant: "GetTask",
      unit: "/s",
      samples: rates.getTask,
      target: "≥ 1,000/s",
    },
    {
      scenario,
      group,
      variant: "ListTasks by context",
      unit: "/s",
      samples: rates.listTasks,
      target: "≥ 500/s",
    },
    ...(["healthz", "getTask", "listTasks"] as const).flatMap((name): Row[] => {
      const variant = {
        healthz: "GET /healthz",
        getTask: "GetTask",
        listTasks: "ListTasks by context",
      }[name];
      return [
        { scenario, group: "server CPU busy", variant, unit: "%", samples: busy[name] },
        { scenario, group: "server waiting for a CPU", variant, unit: "%", samples: waiting[name] },
      ];
    }),
  ];
}
