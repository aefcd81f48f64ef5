/** The store scenario's operations (raw JSON-RPC) and its table rows. */
import { JSONRPC_PATH } from "../../src/a2a/card/agent-card.js";
import type { Plan } from "../plan.js";
import type { Row } from "../stats.js";

const PAGE = 50;

export interface Seeded {
  readonly ids: string[];
  readonly contexts: string[];
}

export type OpName = "healthz" | "getTask" | "listTasks";

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/** The operations of the phases against one server: raw JSON-RPC, parsed, not decoded. */
export function opsFor(url: string, seeded: Seeded) {
  const endpoint = `${url}${JSONRPC_PATH}`;
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
  return {
    healthz: async () => {
      const res = await fetch(`${url}/healthz`);
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
}

const VARIANTS: Record<OpName, string> = {
  healthz: "GET /healthz",
  getTask: "GetTask",
  listTasks: "ListTasks by context",
};

export function storeRows(
  plan: Plan,
  rates: Map<string, number[]>,
  busy: Map<string, number[]>,
  waiting: Map<string, number[]>,
  bulkStartMs: number | undefined,
): Row[] {
  const scenario = "store";
  const n = (count: number) => `${count.toLocaleString("en-US")} tasks`;
  const group = `${n(plan.storeTasks)}, ${plan.storeLoops} loops`;
  const samples = (key: string) => rates.get(key) ?? [];
  const rows: Row[] = [
    {
      scenario,
      group,
      variant: VARIANTS.healthz,
      unit: "/s",
      samples: samples("healthz"),
      baseline: true,
    },
    {
      scenario,
      group,
      variant: VARIANTS.getTask,
      unit: "/s",
      samples: samples("getTask"),
      target: "≥ 2,000/s or ≥ 0.9×",
    },
    {
      scenario,
      group,
      variant: VARIANTS.listTasks,
      unit: "/s",
      samples: samples("listTasks"),
      target: "≥ 1,000/s",
    },
  ];
  if (bulkStartMs !== undefined) {
    for (const name of ["getTask", "listTasks"] as const) {
      const flat = `${VARIANTS[name]}, ${n(plan.storeBulkTasks)} vs ${n(plan.storeTasks)}`;
      rows.push(
        {
          scenario,
          group: flat,
          variant: `${n(plan.storeTasks)}`,
          unit: "/s",
          samples: samples(name),
          baseline: true,
        },
        // A rate: flat (time ≤ 1.2×) is a ratio of at least 1 / 1.2.
        {
          scenario,
          group: flat,
          variant: `${n(plan.storeBulkTasks)}`,
          unit: "/s",
          samples: samples(`${name}@bulk`),
          target: "≥ 0.83× (≤ 1.2× the time)",
        },
      );
    }
    rows.push({
      scenario,
      group: "server start",
      variant: `${n(plan.storeBulkTasks)} stored`,
      unit: "ms",
      samples: [bulkStartMs],
    });
  }
  for (const [key, variant] of [...busy.keys()].map((k) => [k, variantOf(k, plan)] as const)) {
    rows.push(
      { scenario, group: "server CPU busy", variant, unit: "%", samples: busy.get(key) ?? [] },
      {
        scenario,
        group: "server waiting for a CPU",
        variant,
        unit: "%",
        samples: waiting.get(key) ?? [],
      },
    );
  }
  return rows;
}

function variantOf(key: string, plan: Plan): string {
  const [name, bulk] = key.split("@") as [OpName, string | undefined];
  return bulk === undefined
    ? VARIANTS[name]
    : `${VARIANTS[name]}, ${plan.storeBulkTasks.toLocaleString("en-US")} tasks`;
}
