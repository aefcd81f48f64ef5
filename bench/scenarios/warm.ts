/**
 * Warm follow-up turn: the same short scripted reply through our server (blocking, and streaming
 * to its first chunk and its end) against a direct SDK streaming-input session, and against
 * spawn-per-turn (a new `query()` resuming the conversation). Variants interleave per round.
 */
import { blockingTurn, streamingTurn } from "../a2a.js";
import { DirectSession, spawnTurn } from "../direct.js";
import type { Plan } from "../plan.js";
import { TURN_PROMPT, type Rig } from "../rig.js";
import type { Row } from "../stats.js";

export async function warmTurn(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const blocking: number[] = [];
  const streamFirst: number[] = [];
  const streamFinal: number[] = [];
  const directFirst: number[] = [];
  const directFinal: number[] = [];
  const spawnFinal: number[] = [];
  let errors = 0;

  const direct = new DirectSession(rig.directOptions());
  try {
    // The first turn of each spawns its process (and the spawn variant's conversation).
    const context = (await blockingTurn(rig.client, TURN_PROMPT)).contextId;
    await direct.turn(TURN_PROMPT);
    let spawnSession = (await spawnTurn(rig.directOptions(), TURN_PROMPT, undefined)).sessionId;
    for (let round = -plan.warmUp; round < plan.warmRounds; round++) {
      const b = await blockingTurn(rig.client, TURN_PROMPT, context);
      const s = await streamingTurn(rig.client, TURN_PROMPT, context);
      const d = await direct.turn(TURN_PROMPT);
      const p = await spawnTurn(rig.directOptions(), TURN_PROMPT, spawnSession);
      spawnSession = p.sessionId ?? spawnSession;
      if (round < 0) continue;
      errors += [b, s, d, p].filter((t) => t.error).length;
      blocking.push(b.finalMs);
      streamFirst.push(s.firstChunkMs);
      streamFinal.push(s.finalMs);
      directFirst.push(d.firstChunkMs);
      directFinal.push(d.finalMs);
      spawnFinal.push(p.finalMs);
    }
  } finally {
    direct.close();
  }
  if (errors > 0) log(`warm turn: ${errors} turn(s) ended in error`);
  const scenario = "warm turn";
  return [
    {
      scenario,
      group: "final",
      variant: "direct SDK session",
      unit: "ms",
      samples: directFinal,
      baseline: true,
    },
    {
      scenario,
      group: "final",
      variant: "A2A blocking",
      unit: "ms",
      samples: blocking,
      target: "≤ 1.15×",
    },
    {
      scenario,
      group: "final",
      variant: "A2A streaming",
      unit: "ms",
      samples: streamFinal,
      target: "≤ 1.15×",
    },
    {
      scenario,
      group: "final",
      variant: "spawn-per-turn (resume)",
      unit: "ms",
      samples: spawnFinal,
      target: "≥ 5× A2A",
    },
    {
      scenario,
      group: "first chunk",
      variant: "direct SDK session",
      unit: "ms",
      samples: directFirst,
      baseline: true,
    },
    { scenario, group: "first chunk", variant: "A2A streaming", unit: "ms", samples: streamFirst },
  ];
}
