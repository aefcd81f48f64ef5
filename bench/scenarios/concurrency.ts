/**
 * Concurrency: K contexts at once, each taking a warm-up turn (it spawns the context's process)
 * then `turnsPerContext` measured turns, through our server (blocking SendMessage) against K
 * direct SDK sessions. Per-turn p50/p95, the server's RSS, the summed RSS of the Claude Code
 * processes of the batch (those that appeared during it), and errors.
 */
import { setTimeout as delay } from "node:timers/promises";
import { blockingTurn } from "../a2a.js";
import { DirectSession } from "../direct.js";
import type { Plan } from "../plan.js";
import { rssMb, summedRssMb } from "../proc.js";
import { TURN_PROMPT, type Rig } from "../rig.js";
import type { Row } from "../stats.js";

interface Batch {
  readonly turns: number[];
  readonly errors: number;
  readonly claudeRss: number;
}

async function batch(
  k: number,
  turns: number,
  pids: () => Promise<number[]>,
  runContext: (measure: (ms: number, error: boolean) => void) => Promise<void>,
): Promise<Batch> {
  const before = new Set(await pids());
  const samples: number[] = [];
  let errors = 0;
  const measure = (ms: number, error: boolean) => {
    samples.push(ms);
    if (error) errors++;
  };
  const outcomes = await Promise.allSettled(Array.from({ length: k }, () => runContext(measure)));
  errors += outcomes.filter((o) => o.status === "rejected").length * turns;
  const fresh = (await pids()).filter((pid) => !before.has(pid));
  return { turns: samples, errors, claudeRss: await summedRssMb(fresh) };
}

export async function concurrency(rig: Rig, plan: Plan): Promise<Row[]> {
  const scenario = "concurrency";
  const turns = plan.turnsPerContext;
  const results = new Map<number, { a2a: Batch[]; direct: Batch[]; serverRss: number[] }>();
  for (const k of plan.contexts) results.set(k, { a2a: [], direct: [], serverRss: [] });

  const a2aBatch = (k: number) =>
    batch(k, turns, rig.serverClaudePids, async (measure) => {
      const { contextId } = await blockingTurn(rig.client, TURN_PROMPT);
      for (let i = 0; i < turns; i++) {
        const t = await blockingTurn(rig.client, TURN_PROMPT, contextId);
        measure(t.finalMs, t.error);
      }
    });
  const directBatch = (k: number) => {
    const sessions: DirectSession[] = [];
    return batch(k, turns, rig.directClaudePids, async (measure) => {
      const session = new DirectSession(rig.directOptions());
      sessions.push(session);
      await session.turn(TURN_PROMPT);
      for (let i = 0; i < turns; i++) {
        const t = await session.turn(TURN_PROMPT);
        measure(t.finalMs, t.error);
      }
    }).finally(async () => {
      sessions.forEach((s) => s.close());
      // Their processes take a while to exit: not on the next batch's time.
      const end = Date.now() + 15_000;
      while (Date.now() < end && (await rig.directClaudePids()).length > 0) await delay(100);
    });
  };

  for (let rep = 0; rep < plan.concurrencyReps; rep++) {
    for (const k of plan.contexts) {
      const r = results.get(k);
      if (r === undefined) continue;
      // Alternate which side goes first, so a warmer machine favours neither.
      if (rep % 2 === 0) {
        r.a2a.push(await a2aBatch(k));
        r.serverRss.push(await rssMb(rig.server.pid));
        r.direct.push(await directBatch(k));
      } else {
        r.direct.push(await directBatch(k));
        r.a2a.push(await a2aBatch(k));
        r.serverRss.push(await rssMb(rig.server.pid));
      }
    }
  }

  const rows: Row[] = [];
  for (const [k, r] of results) {
    const K = `K=${k}`;
    const all = (bs: Batch[]) => bs.flatMap((b) => b.turns);
    const sum = (bs: Batch[], f: (b: Batch) => number) => bs.map(f);
    rows.push(
      {
        scenario,
        group: `turn ${K} (p95 ratio)`,
        variant: "direct SDK sessions",
        unit: "ms",
        samples: all(r.direct),
        baseline: true,
        compare: "p95",
      },
      {
        scenario,
        group: `turn ${K} (p95 ratio)`,
        variant: "A2A blocking",
        unit: "ms",
        samples: all(r.a2a),
        compare: "p95",
        ...(k === 8 && { target: "p95 ≤ 1.25×" }),
      },
      {
        scenario,
        group: `errors ${K}`,
        variant: "direct SDK sessions",
        unit: "count",
        samples: sum(r.direct, (b) => b.errors),
        baseline: true,
      },
      {
        scenario,
        group: `errors ${K}`,
        variant: "A2A blocking",
        unit: "count",
        samples: sum(r.a2a, (b) => b.errors),
        target: "0",
      },
      {
        scenario,
        group: `Claude Code RSS ${K}`,
        variant: "direct SDK sessions",
        unit: "MB",
        samples: sum(r.direct, (b) => b.claudeRss),
        baseline: true,
      },
      {
        scenario,
        group: `Claude Code RSS ${K}`,
        variant: "A2A",
        unit: "MB",
        samples: sum(r.a2a, (b) => b.claudeRss),
      },
      {
        scenario,
        group: `server RSS ${K}`,
        variant: "A2A server",
        unit: "MB",
        samples: r.serverRss,
      },
    );
  }
  return rows;
}
