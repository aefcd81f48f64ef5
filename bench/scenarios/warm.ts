/**
 * Warm follow-up turn: the same short scripted reply through our server (blocking, and streaming
 * to its first chunk and its end) against a direct SDK streaming-input session, interleaved per
 * round; then the server's CPU per turn over blocks of A2A turns; then spawn-per-turn (a new
 * `query()` resuming the conversation) on its own.
 */
import { setTimeout as delay } from "node:timers/promises";
import { blockingTurn, streamingTurn } from "../a2a.js";
import { DirectSession, spawnTurn } from "../direct.js";
import type { Plan } from "../plan.js";
import { cpuTimePreciseMs } from "../proc.js";
import { TURN_PROMPT, type Rig } from "../rig.js";
import type { Row } from "../stats.js";

/** Polls `done` until it holds, for at most `ms`. */
async function settled(done: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end && !(await done())) await delay(50);
}

/** The six orders of (blocking, streaming, direct). */
const ORDERS = [
  [0, 1, 2],
  [2, 1, 0],
  [1, 2, 0],
  [0, 2, 1],
  [2, 0, 1],
  [1, 0, 2],
] as const;
/** A2A turns per reading of the server's CPU. */
const CPU_BLOCK = 10;

export async function warmTurn(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const blocking: number[] = [];
  /** The server's CPU time per A2A turn (both kinds). */
  const serverCpu: number[] = [];
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
    type Turn = Awaited<ReturnType<typeof blockingTurn>>;
    const variants: (() => Promise<Turn>)[] = [
      () => blockingTurn(rig.client, TURN_PROMPT, context),
      () => streamingTurn(rig.client, TURN_PROMPT, context),
      () => direct.turn(TURN_PROMPT).then((t) => ({ ...t, contextId: "" })),
    ];
    // Each round runs the three in the next of their six orders, so each follows each other as
    // often (a fixed cycle made one variant always follow the same one, and pay for it).
    for (let round = -plan.warmUp; round < plan.warmRounds; round++) {
      const turns: Turn[] = [];
      for (const at of ORDERS[(round + plan.warmUp) % ORDERS.length] as readonly number[]) {
        turns[at] = await (variants[at] as () => Promise<Turn>)();
      }
      if (round < 0) continue;
      const [b, s, d] = turns as [Turn, Turn, Turn];
      errors += turns.filter((t) => t.error).length;
      blocking.push(b.finalMs);
      streamFirst.push(s.firstChunkMs);
      streamFinal.push(s.finalMs);
      directFirst.push(d.firstChunkMs);
      directFinal.push(d.finalMs);
    }
    // The server's CPU over blocks of A2A turns in a row (blocking and streaming alternating), to
    // the nanosecond: nothing else runs on the server meanwhile.
    for (let block = 0; block < Math.max(3, plan.warmRounds / 2); block++) {
      const before = await cpuTimePreciseMs(rig.server.pid);
      for (let i = 0; i < CPU_BLOCK; i++) {
        const t = await (variants[i % 2] as () => Promise<Turn>)();
        if (t.error) errors++;
      }
      serverCpu.push(((await cpuTimePreciseMs(rig.server.pid)) - before) / CPU_BLOCK);
    }
    // Spawn-per-turn last, on its own: the process it starts and ends slows whatever runs next.
    let spawnSession = (await spawnTurn(rig.directOptions(), TURN_PROMPT, undefined)).sessionId;
    for (let round = 0; round < plan.warmRounds; round++) {
      const before = new Set(await rig.directClaudePids());
      const p = await spawnTurn(rig.directOptions(), TURN_PROMPT, spawnSession);
      spawnSession = p.sessionId ?? spawnSession;
      if (p.error) errors++;
      spawnFinal.push(p.finalMs);
      // Its process exits after the turn: let that end before the next one is timed.
      await settled(async () => (await rig.directClaudePids()).every((pid) => before.has(pid)));
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
      target: "≤ 1.10×",
    },
    {
      scenario,
      group: "final",
      variant: "A2A streaming",
      unit: "ms",
      samples: streamFinal,
      target: "≤ 1.10×",
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
    // Per turn, from blocks of ten A2A turns in a row (every thread's schedstat, in ns).
    {
      scenario,
      group: "server CPU per turn",
      variant: "A2A",
      unit: "ms",
      samples: serverCpu,
      target: "≤ 5 ms",
    },
  ];
}
