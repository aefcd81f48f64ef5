/**
 * Before and after in the same run: two extra servers on the same scripted model and config, one
 * from another build (`BENCH_BEFORE=<checkout>`, its `dist/cli.js`) and one from this checkout,
 * their turns interleaved (before, after, after, before, ...): warm turns blocking and streaming
 * (the client's time and the server's CPU per turn), then 5,000-delta answers (the same two).
 * Every ratio is this build over the earlier one.
 */
import { join } from "node:path";
import { blockingTurn, streamingTurn } from "../a2a.js";
import type { Plan } from "../plan.js";
import { cpuTimePreciseMs } from "../proc.js";
import { longPrompt, TURN_PROMPT, type ExtraServer, type Rig } from "../rig.js";
import type { Row, Unit } from "../stats.js";

type Side = "before" | "after";
type Turn = Awaited<ReturnType<typeof blockingTurn>>;

export async function compare(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const dir = process.env.BENCH_BEFORE;
  if (dir === undefined || dir === "") {
    log("compare: set BENCH_BEFORE=<a built checkout> to compare with it");
    return [];
  }
  const config = { sessions: { maxLive: 16, idleTimeoutMs: 20_000, minIdleBeforeEvictMs: 0 } };
  const servers: Record<Side, ExtraServer> = {
    before: await rig.extraServer(config, undefined, join(dir, "dist", "cli.js")),
    after: await rig.extraServer(config),
  };
  const samples = new Map<string, number[]>();
  const note = (key: string, value: number) =>
    samples.set(key, [...(samples.get(key) ?? []), value]);
  try {
    const contexts: Record<Side, string> = {
      before: (await blockingTurn(servers.before.client, TURN_PROMPT)).contextId,
      after: (await blockingTurn(servers.after.client, TURN_PROMPT)).contextId,
    };
    const cpu = (side: Side) => cpuTimePreciseMs(servers[side].server.pid);
    const final = (side: Side, what: string, t: Turn) => {
      if (t.error) log(`compare: a ${what} turn (${side}) ended in error`);
      note(`${what} final|${side}`, t.finalMs);
    };
    // The server's CPU over a block of turns in a row: nothing else runs on it meanwhile.
    const BLOCK = 6;
    for (let round = -plan.warmUp; round < plan.warmRounds * 2; round++) {
      const order: Side[] = round % 2 === 0 ? ["before", "after"] : ["after", "before"];
      for (const side of order) {
        const { client } = servers[side];
        const began = await cpu(side);
        for (let i = 0; i < BLOCK; i++) {
          const streaming = i % 2 === 1;
          const t = await (streaming ? streamingTurn : blockingTurn)(
            client,
            TURN_PROMPT,
            contexts[side],
          );
          if (round >= 0) final(side, streaming ? "warm streaming" : "warm blocking", t);
        }
        if (round >= 0)
          note(`warm turn, server CPU per turn|${side}`, ((await cpu(side)) - began) / BLOCK);
      }
    }
    const timed = async (side: Side, what: string, turn: () => Promise<Turn>) => {
      const before = await cpu(side);
      const t = await turn();
      final(side, what, t);
      note(`${what} server CPU|${side}`, (await cpu(side)) - before);
    };
    const n = 5_000;
    for (let round = 0; round < Math.max(3, plan.longRounds * 2); round++) {
      const order: Side[] = round % 2 === 0 ? ["before", "after"] : ["after", "before"];
      for (const side of order) {
        const { client } = servers[side];
        const prompt = longPrompt(n, `compare-${side}-${round}`);
        await timed(side, `long N=${n.toLocaleString("en-US")}`, () =>
          streamingTurn(client, prompt, contexts[side]),
        );
      }
    }
  } finally {
    await servers.before.close();
    await servers.after.close();
  }
  const rows: Row[] = [];
  const groups = [...new Set([...samples.keys()].map((k) => k.split("|")[0] as string))];
  for (const group of groups) {
    const unit: Unit = "ms";
    rows.push(
      {
        scenario: "compare",
        group,
        variant: "before",
        unit,
        samples: samples.get(`${group}|before`) ?? [],
        baseline: true,
      },
      {
        scenario: "compare",
        group,
        variant: "after (this build)",
        unit,
        samples: samples.get(`${group}|after`) ?? [],
      },
    );
  }
  return rows;
}
