/**
 * `sessions.spares`: a one-shot conversation (a message in a new context) against a warm
 * follow-up turn, time to the first streamed chunk and to the final status, on two servers in
 * the same run, spares on and off, interleaved: one new conversation every 2 s (the spare has
 * time to come back), each followed by a warm turn of a conversation already live. Then a burst
 * of 8 new conversations at once on each, against the same burst with spares off.
 */
import { setTimeout as delay } from "node:timers/promises";
import { streamingTurn } from "../a2a.js";
import type { Plan } from "../plan.js";
import { TURN_PROMPT, type ExtraServer, type Rig } from "../rig.js";
import type { Row } from "../stats.js";

const BURST = 8;
const GAP_MS = 2_000;

interface Side {
  readonly name: string;
  readonly server: ExtraServer;
  readonly context: string;
  readonly oneShotFirst: number[];
  readonly oneShotFinal: number[];
  readonly warmFinal: number[];
  readonly burstFinal: number[];
}

export async function spares(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const servers = await Promise.all(
    [1, 0].map((n) =>
      rig.extraServer({ sessions: { spares: n, maxLive: 32, minIdleBeforeEvictMs: 0 } }),
    ),
  );
  let errors = 0;
  try {
    const sides: Side[] = [];
    for (const [i, server] of servers.entries()) {
      const first = await streamingTurn(server.client, TURN_PROMPT);
      sides.push({
        name: i === 0 ? "spares on (1)" : "spares off",
        server,
        context: first.contextId,
        oneShotFirst: [],
        oneShotFinal: [],
        warmFinal: [],
        burstFinal: [],
      });
    }
    const rounds = plan.sparesRounds;
    for (let round = 0; round < rounds; round++) {
      // Alternate which side goes first, so neither always follows the other.
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      const started = Date.now();
      for (const side of order) {
        const one = await streamingTurn(side.server.client, TURN_PROMPT);
        const warm = await streamingTurn(side.server.client, TURN_PROMPT, side.context);
        if (one.error || warm.error) errors++;
        side.oneShotFirst.push(one.firstChunkMs);
        side.oneShotFinal.push(one.finalMs);
        side.warmFinal.push(warm.finalMs);
      }
      await delay(Math.max(0, GAP_MS - (Date.now() - started)));
    }
    for (const side of sides) {
      await delay(GAP_MS);
      const burst = await Promise.all(
        Array.from({ length: BURST }, () => streamingTurn(side.server.client, TURN_PROMPT)),
      );
      errors += burst.filter((t) => t.error).length;
      side.burstFinal.push(...burst.map((t) => t.finalMs));
    }
    if (errors > 0) log(`spares: ${errors} turn(s) ended in error`);
    const scenario = "spares (shared)";
    const [on, off] = sides as [Side, Side];
    return [
      {
        scenario,
        group: "final",
        variant: "warm follow-up, spares on",
        unit: "ms",
        samples: on.warmFinal,
        baseline: true,
      },
      {
        scenario,
        group: "final",
        variant: "one-shot, spares on",
        unit: "ms",
        samples: on.oneShotFinal,
        target: "≤ 1.5× (p95 ≤ 3×)",
      },
      {
        scenario,
        group: "final",
        variant: "warm follow-up, spares off",
        unit: "ms",
        samples: off.warmFinal,
      },
      {
        scenario,
        group: "final",
        variant: "one-shot, spares off",
        unit: "ms",
        samples: off.oneShotFinal,
      },
      {
        scenario,
        group: "first chunk",
        variant: "one-shot, spares off",
        unit: "ms",
        samples: off.oneShotFirst,
        baseline: true,
      },
      {
        scenario,
        group: "first chunk",
        variant: "one-shot, spares on",
        unit: "ms",
        samples: on.oneShotFirst,
      },
      {
        scenario,
        group: `burst of ${BURST} new, final`,
        variant: "spares off",
        unit: "ms",
        samples: off.burstFinal,
        baseline: true,
      },
      {
        scenario,
        group: `burst of ${BURST} new, final`,
        variant: "spares on (1)",
        unit: "ms",
        samples: on.burstFinal,
        target: "≤ 1.0×",
      },
    ];
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}
