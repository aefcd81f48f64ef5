/**
 * Warm follow-up turn: the same short scripted reply through our server (blocking, and streaming
 * to its first chunk and its end) against a direct SDK streaming-input session, and against
 * spawn-per-turn (a new `query()` resuming the conversation). Variants interleave per round.
 */
import { setTimeout as delay } from "node:timers/promises";
import { blockingTurn, streamingTurn } from "../a2a.js";
import { DirectSession, spawnTurn } from "../direct.js";
import type { Plan } from "../plan.js";
import { cpuTimeMs } from "../proc.js";
import { TURN_PROMPT, type Rig } from "../rig.js";
import type { Row } from "../stats.js";

/** Polls `done` until it holds, for at most `ms`. */
async function settled(done: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end && !(await done())) await delay(50);
}

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
    let spawnSession = (await spawnTurn(rig.directOptions(), TURN_PROMPT, undefined)).sessionId;
    type Turn = Awaited<ReturnType<typeof blockingTurn>>;
    let measuring = false;
    const withServerCpu = async (turn: () => Promise<Turn>): Promise<Turn> => {
      const before = await cpuTimeMs(rig.server.pid);
      const t = await turn();
      if (measuring) serverCpu.push((await cpuTimeMs(rig.server.pid)) - before);
      return t;
    };
    const variants: (() => Promise<Turn>)[] = [
      () => withServerCpu(() => blockingTurn(rig.client, TURN_PROMPT, context)),
      () => withServerCpu(() => streamingTurn(rig.client, TURN_PROMPT, context)),
      () => direct.turn(TURN_PROMPT).then((t) => ({ ...t, contextId: "" })),
      async () => {
        const before = new Set(await rig.directClaudePids());
        const p = await spawnTurn(rig.directOptions(), TURN_PROMPT, spawnSession);
        spawnSession = p.sessionId ?? spawnSession;
        // Its process exits after the turn: let that end before the next variant is timed.
        await settled(async () => (await rig.directClaudePids()).every((pid) => before.has(pid)));
        return { ...p, contextId: "" };
      },
    ];
    for (let round = -plan.warmUp; round < plan.warmRounds; round++) {
      measuring = round >= 0;
      // Each round starts with the next variant, so none always follows the same one.
      const turns: Turn[] = [];
      for (let i = 0; i < variants.length; i++) {
        const at = (i + round + plan.warmUp) % variants.length;
        turns[at] = await (variants[at] as () => Promise<Turn>)();
      }
      if (round < 0) continue;
      const [b, s, d, p] = turns as [Turn, Turn, Turn, Turn];
      errors += turns.filter((t) => t.error).length;
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
    // 10 ms resolution (/proc): the median of many turns is still meaningful.
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
