/**
 * How much of "another context's turn during a 20,000-delta answer" is the machine rather than
 * the server: the other context's A2A turns are timed idle, during a 20,000-delta answer of a
 * direct SDK session (Claude Code and the model busy, the server idle), and during the same
 * answer through the server (the bench's figure), interleaved per round; `/healthz` likewise.
 *
 *   npx tsx bench/micro/other-turn-floor.ts [rounds=3]
 */
import { blockingTurn, streamingTurn } from "../a2a.js";
import { DirectSession } from "../direct.js";
import { idleHealth, probeHealth } from "../probe.js";
import { longPrompt, startRig, TURN_PROMPT } from "../rig.js";
import { median } from "../stats.js";

const rounds = Number(process.argv[2] ?? 3);
const rig = await startRig();
const direct = new DirectSession(rig.directOptions());
try {
  const context = (await streamingTurn(rig.client, longPrompt(1_000, "warm-up"))).contextId;
  const other = (await blockingTurn(rig.client, TURN_PROMPT)).contextId;
  await direct.turn(longPrompt(1_000, "warm-up"));
  const idle: number[] = [];
  const duringDirect: number[] = [];
  const duringA2A: number[] = [];
  const healthIdle: number[] = [];
  const healthDirect: number[] = [];
  const healthA2A: number[] = [];
  const during = async (into: number[], health: number[], answer: () => Promise<unknown>) => {
    let streaming = true;
    const probe = probeHealth(rig.server.url);
    const others = (async () => {
      while (streaming) {
        const t = await blockingTurn(rig.client, TURN_PROMPT, other);
        if (streaming) into.push(t.finalMs);
      }
    })();
    await answer();
    streaming = false;
    health.push(...(await probe.stop()));
    await others;
  };
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < 5; i++)
      idle.push((await blockingTurn(rig.client, TURN_PROMPT, other)).finalMs);
    healthIdle.push(...(await idleHealth(rig.server.url, 10)));
    await during(duringDirect, healthDirect, () => direct.turn(longPrompt(20_000, `d${r}`)));
    await during(duringA2A, healthA2A, () =>
      streamingTurn(rig.client, longPrompt(20_000, `a${r}`), context),
    );
  }
  const show = (name: string, xs: number[], base: number) =>
    console.log(
      `${name.padEnd(34)} n=${xs.length} median ${median(xs).toFixed(1)} ms (${(median(xs) / base).toFixed(2)}×)`,
    );
  show("other context's turn, idle", idle, median(idle));
  show("  during a direct SDK 20k answer", duringDirect, median(idle));
  show("  during an A2A 20k answer", duringA2A, median(idle));
  show("/healthz, idle", healthIdle, median(healthIdle));
  show("  during a direct SDK 20k answer", healthDirect, median(healthIdle));
  show("  during an A2A 20k answer", healthA2A, median(healthIdle));
} finally {
  direct.close();
  await rig.close();
}
