/**
 * Long answer: one reply of N one-character deltas, through our server to an A2A streaming client
 * against a direct SDK consumer of the same reply (A B per round). Also the server's CPU time
 * (from /proc) per delta, `/healthz` latency while the answer streams, and, at the largest N,
 * the warm turns of another context run meanwhile: the event loop must stay free. Both probes also
 * run during the direct consumer's answer at that N, which the server takes no part in: the
 * machine's floor (Claude Code streaming, the bench consuming), shown beside the A2A figures.
 */
import { blockingTurn, streamingTurn } from "../a2a.js";
import { DirectSession } from "../direct.js";
import type { Plan } from "../plan.js";
import { idleHealth, probeHealth } from "../probe.js";
import { cpuTimePreciseMs } from "../proc.js";
import { longPrompt, longText, TURN_PROMPT, type Rig } from "../rig.js";
import type { Row } from "../stats.js";
import { longOutside } from "./long-outside.js";

const fmt = (n: number) => n.toLocaleString("en-US");

/** Warm turns of `context`, one after another, until `stop()` is called (its call, not its end, ends the count). */
function otherTurns(rig: Rig, context: string, into: number[]): { stop(): Promise<void> } {
  let running = true;
  const loop = (async () => {
    while (running) {
      const t = await blockingTurn(rig.client, TURN_PROMPT, context);
      if (running) into.push(t.finalMs);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

export async function longAnswer(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const scenario = "long answer";
  const rows: Row[] = [];
  const largest = Math.max(...plan.longSizes);
  const healthIdle = await idleHealth(rig.server.url, 20);
  const healthRows: Row[] = [
    {
      scenario,
      group: "/healthz",
      variant: "idle",
      unit: "ms",
      samples: healthIdle,
      baseline: true,
    },
  ];
  const otherIdle: number[] = [];
  const otherDuring: number[] = [];
  const otherDuringDirect: number[] = [];
  const healthDuringDirect: number[] = [];
  const cpuRows: Row[] = [];
  /** Per N: the bench process's CPU while it consumes the direct answer, against the server's. */
  const consumerRows: Row[] = [];

  const direct = new DirectSession(rig.directOptions());
  try {
    const first = await streamingTurn(
      rig.client,
      longPrompt(plan.longSizes[0] ?? 1_000, "warm-up"),
    );
    const context = first.contextId;
    const other = (await blockingTurn(rig.client, TURN_PROMPT)).contextId;
    await direct.turn(longPrompt(plan.longSizes[0] ?? 1_000, "warm-up"));

    for (const n of plan.longSizes) {
      const a2aWall: number[] = [];
      const a2aEvents: number[] = [];
      const directWall: number[] = [];
      const directEvents: number[] = [];
      const cpuPerDelta: number[] = [];
      const directCpuPerDelta: number[] = [];
      const healthDuring: number[] = [];
      for (let round = 0; round < plan.longRounds; round++) {
        const tag = `r${round}`;
        if (n === largest) {
          for (let i = 0; i < 3; i++)
            otherIdle.push((await blockingTurn(rig.client, TURN_PROMPT, other)).finalMs);
        }
        const cpuBefore = await cpuTimePreciseMs(rig.server.pid);
        const probe = probeHealth(rig.server.url);
        // At the largest N, another context keeps taking turns while this one streams.
        const others = n === largest ? otherTurns(rig, other, otherDuring) : undefined;
        const a = await streamingTurn(rig.client, longPrompt(n, tag), context);
        // Stopped at once: nothing that ends from here on counts as during the answer.
        const othersDone = others?.stop();
        const healthDone = probe.stop();
        const cpu = (await cpuTimePreciseMs(rig.server.pid)) - cpuBefore;
        healthDuring.push(...(await healthDone));
        await othersDone;
        if (a.error || a.text !== longText(n))
          log(`long answer N=${fmt(n)}: the A2A client's text is not exact`);
        a2aWall.push(a.finalMs / 1000);
        a2aEvents.push(a.messages);
        cpuPerDelta.push((cpu * 1000) / n);

        // At the largest N, the same probes during the direct answer, which the server takes no
        // part in: what the machine alone (Claude Code streaming, the bench consuming) costs them.
        const floorProbe = n === largest ? probeHealth(rig.server.url) : undefined;
        const floorOthers = n === largest ? otherTurns(rig, other, otherDuringDirect) : undefined;
        const directCpu = process.cpuUsage();
        const d = await direct.turn(longPrompt(n, tag));
        const { user, system } = process.cpuUsage(directCpu);
        const floorDone = floorOthers?.stop();
        const floorHealth = floorProbe?.stop();
        directCpuPerDelta.push((user + system) / n);
        healthDuringDirect.push(...((await floorHealth) ?? []));
        await floorDone;
        if (d.error || d.text !== longText(n))
          log(`long answer N=${fmt(n)}: the direct consumer's text is not exact`);
        directWall.push(d.finalMs / 1000);
        directEvents.push(d.messages);
      }
      const N = `N=${fmt(n)}`;
      rows.push(
        {
          scenario,
          group: `wall ${N}`,
          variant: "direct SDK",
          unit: "s",
          samples: directWall,
          baseline: true,
        },
        {
          scenario,
          group: `wall ${N}`,
          variant: "A2A streaming",
          unit: "s",
          samples: a2aWall,
          // Issue 22: at N = 20,000, ≤ 1.2×; the others keep issue 12's ≤ 1.5×.
          target: n === 20_000 ? "≤ 1.2×" : "≤ 1.5×",
        },
        {
          scenario,
          group: `events ${N}`,
          variant: "direct SDK",
          unit: "count",
          samples: directEvents,
          baseline: true,
        },
        {
          scenario,
          group: `events ${N}`,
          variant: "A2A streaming",
          unit: "count",
          samples: a2aEvents,
        },
      );
      consumerRows.push(
        {
          scenario,
          group: `CPU per delta ${N}`,
          variant: "direct SDK consumer (the SDK's own cost)",
          unit: "µs",
          samples: directCpuPerDelta,
          baseline: true,
        },
        {
          scenario,
          group: `CPU per delta ${N}`,
          variant: "A2A server",
          unit: "µs",
          samples: cpuPerDelta,
        },
      );
      cpuRows.push({
        scenario,
        group: "server CPU per delta",
        variant: `A2A ${N}`,
        unit: "µs",
        samples: cpuPerDelta,
        ...(cpuRows.length === 0 ? { baseline: true } : { target: "≤ 1.5×" }),
      });
      healthRows.push({
        scenario,
        group: "/healthz",
        variant: `during ${N}`,
        unit: "ms",
        samples: healthDuring,
        target: "≤ 1.5×",
      });
    }
  } finally {
    direct.close();
  }
  // From outside the bench's process too: the figure a user's own client sees.
  const outside = await longOutside(rig, plan, log);
  const N = `N=${fmt(largest)}`;
  healthRows.push({
    scenario,
    group: "/healthz",
    variant: `during direct ${N} (the machine's floor)`,
    unit: "ms",
    samples: healthDuringDirect,
  });
  return [
    ...rows,
    ...outside,
    ...cpuRows,
    ...consumerRows,
    ...healthRows,
    {
      scenario,
      group: "other context's turn",
      variant: "idle",
      unit: "ms",
      samples: otherIdle,
      baseline: true,
    },
    {
      scenario,
      group: "other context's turn",
      variant: `during ${N}`,
      unit: "ms",
      samples: otherDuring,
      target: "≤ 1.5×",
    },
    {
      scenario,
      group: "other context's turn",
      variant: `during direct ${N} (the machine's floor)`,
      unit: "ms",
      samples: otherDuringDirect,
    },
  ];
}
