/**
 * `sessions.spares`: a one-shot conversation (a message in a new context) against a warm
 * follow-up turn, time to the first streamed chunk and to the final status, spares on and off,
 * under "shared" and under "worktree" isolation (a repository of `plan.sparesFiles` files), all
 * four servers in the same run and interleaved: one new conversation every 2 s (the spare has
 * time to come back), each followed by a warm turn of a conversation already live. Then a burst
 * of 8 new conversations at once on each "shared" server, against the same burst with spares off.
 */
import { setTimeout as delay } from "node:timers/promises";
import { streamingTurn } from "../a2a.js";
import type { Plan } from "../plan.js";
import { TURN_PROMPT, type ExtraServer, type Rig } from "../rig.js";
import type { Row } from "../stats.js";
import { generateRepository } from "./workspace.js";

const BURST = 8;
const GAP_MS = 2_000;

interface Side {
  readonly isolation: "shared" | "worktree";
  readonly spares: number;
  readonly server: ExtraServer;
  context: string;
  readonly oneShotFirst: number[];
  readonly oneShotFinal: number[];
  readonly warmFinal: number[];
  readonly burstFinal: number[];
}

async function side(rig: Rig, isolation: Side["isolation"], spares: number, files: number) {
  const config = {
    sessions: { spares, maxLive: 32, minIdleBeforeEvictMs: 0 },
    claude: { isolation },
  };
  const server = await rig.extraServer(
    config,
    isolation === "worktree" ? (cwd) => generateRepository(cwd, files) : undefined,
  );
  const s: Side = {
    isolation,
    spares,
    server,
    context: "",
    oneShotFirst: [],
    oneShotFinal: [],
    warmFinal: [],
    burstFinal: [],
  };
  return s;
}

export async function spares(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const sides: Side[] = [];
  let errors = 0;
  try {
    for (const isolation of ["shared", "worktree"] as const) {
      for (const n of [1, 0]) sides.push(await side(rig, isolation, n, plan.sparesFiles));
    }
    for (const s of sides)
      s.context = (await streamingTurn(s.server.client, TURN_PROMPT)).contextId;
    for (let round = 0; round < plan.sparesRounds; round++) {
      // Alternate the order, so no side always follows the same one.
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      const started = Date.now();
      for (const s of order) {
        const one = await streamingTurn(s.server.client, TURN_PROMPT);
        const warm = await streamingTurn(s.server.client, TURN_PROMPT, s.context);
        if (one.error || warm.error) errors++;
        s.oneShotFirst.push(one.firstChunkMs);
        s.oneShotFinal.push(one.finalMs);
        s.warmFinal.push(warm.finalMs);
      }
      await delay(Math.max(0, GAP_MS - (Date.now() - started)));
    }
    for (const s of sides.filter((x) => x.isolation === "shared")) {
      await delay(GAP_MS);
      const burst = await Promise.all(
        Array.from({ length: BURST }, () => streamingTurn(s.server.client, TURN_PROMPT)),
      );
      errors += burst.filter((t) => t.error).length;
      s.burstFinal.push(...burst.map((t) => t.finalMs));
    }
    if (errors > 0) log(`spares: ${errors} turn(s) ended in error`);
  } finally {
    await Promise.all(sides.map((s) => s.server.close()));
  }
  const rows = sides.flatMap((s, i) => rowsOf(s, i % 2 === 0, plan.sparesFiles));
  // One scenario's groups together, in the order they first appear.
  const key = (r: Row) => `${r.scenario}\0${r.group}`;
  const order = [...new Set(rows.map(key))];
  return rows.sort((a, b) => order.indexOf(key(a)) - order.indexOf(key(b)));
}

/** A side's rows; `on` (spares on) carries the baselines and targets of its isolation. */
function rowsOf(s: Side, on: boolean, files: number): Row[] {
  const scenario =
    s.isolation === "shared"
      ? "spares (shared)"
      : `spares (worktree, ${files.toLocaleString("en-US")} files)`;
  const spares = on ? `spares on (${s.spares})` : "spares off";
  const rows: Row[] = [
    {
      scenario,
      group: "final",
      variant: `warm follow-up, ${spares}`,
      unit: "ms",
      samples: s.warmFinal,
      ...(on && { baseline: true }),
    },
    {
      scenario,
      group: "final",
      variant: `one-shot, ${spares}`,
      unit: "ms",
      samples: s.oneShotFinal,
      ...(on && { target: "≤ 1.5× (p95 ≤ 3×)" }),
    },
    {
      scenario,
      group: "first chunk",
      variant: `one-shot, ${spares}`,
      unit: "ms",
      samples: s.oneShotFirst,
      ...(!on && { baseline: true }),
    },
  ];
  if (s.burstFinal.length > 0) {
    rows.push({
      scenario,
      group: `burst of ${BURST} new, final`,
      variant: spares,
      unit: "ms",
      samples: s.burstFinal,
      ...(on ? { target: "≤ 1.0×" } : { baseline: true }),
    });
  }
  return rows;
}
