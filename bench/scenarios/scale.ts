/**
 * How the server's own cost grows with its work (issue 52), in server CPU time (the sum of its
 * threads' schedstat): each row at a small and a big size, the ratio big over small.
 * - new conversation: the first turn of a new context on a server whose map holds N conversations;
 * - startup: spawn to serving (its CPU when `/healthz` first answers) with N resumable
 *   conversations, and with 100 resumable plus S whose transcripts are gone (stale);
 * - resuming turn: the first turn of a conversation T turns long, after a restart;
 * - RSS: the server's resident memory after 10 and after M turns of one conversation.
 * Maps are seeded as the seed-format JSON file, transcripts as copies of a real one
 * (`bench/scale-seed.ts`). With `BENCH_BEFORE`, that build runs the same rows. Quick mode uses
 * smaller sizes, named in the rows; `BENCH_SCALE_TURNS` sets the long conversation's length.
 */
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { blockingTurn } from "../a2a.js";
import type { Plan } from "../plan.js";
import { cpuTimePreciseMs, rssMb } from "../proc.js";
import { TURN_PROMPT, type ExtraServer, type Rig } from "../rig.js";
import { readTemplate, seedWorkspace, type Seed, type Template } from "../scale-seed.js";
import type { Row, Unit } from "../stats.js";

interface Sizes {
  readonly maps: readonly [number, number];
  readonly stale: number;
  readonly turns: readonly [number, number];
  readonly rssTurns: readonly [number, number];
  /** Samples per new-conversation and resuming-turn row. */
  readonly samples: number;
}

const FULL: Sizes = {
  maps: [100, 50_000],
  stale: 10_000,
  turns: [10, 1_500],
  rssTurns: [10, 2_000],
  samples: 3,
};
const QUICK: Sizes = {
  maps: [100, 2_000],
  stale: 1_000,
  turns: [10, 300],
  rssTurns: [10, 200],
  samples: 2,
};

const CONFIG = { sessions: { maxLive: 16, idleTimeoutMs: 60_000, minIdleBeforeEvictMs: 0 } };
const n = (x: number) => x.toLocaleString("en-US");

interface Build {
  readonly label: string;
  readonly cli: string | undefined;
}

export async function scale(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const chosen = plan.quick ? QUICK : FULL;
  // BENCH_SCALE_TURNS: the long conversation's length of the resuming-turn row, in any mode.
  const turns = Number(process.env.BENCH_SCALE_TURNS ?? "");
  const sizes: Sizes =
    Number.isInteger(turns) && turns > 0 ? { ...chosen, turns: [chosen.turns[0], turns] } : chosen;
  const before = process.env.BENCH_BEFORE;
  const builds: Build[] = [
    { label: "this build", cli: undefined },
    ...(before ? [{ label: "before", cli: join(before, "dist", "cli.js") }] : []),
  ];
  const template = await makeTemplate(rig);
  const rows: Row[] = [];
  for (const build of builds) {
    const row = (group: string, variant: string, unit: Unit, samples: number[], base = false) =>
      rows.push({
        scenario: "scale",
        group: `${group} (${build.label})`,
        variant,
        unit,
        samples,
        ...(base && { baseline: true }),
      });
    for (const [i, size] of sizes.maps.entries()) {
      log(`scale (${build.label}): ${n(size)} conversations`);
      const s = await seeded(rig, build, template, { resumable: size, stale: 0, turns: 1 });
      try {
        row("startup, server CPU", `${n(size)} conversations`, "ms", [s.startCpu], i === 0);
        const costs: number[] = [];
        for (let k = 0; k < sizes.samples; k++) {
          costs.push(await turnCpu(s.server, ""));
        }
        row("new conversation, server CPU", `${n(size)} conversations`, "ms", costs, i === 0);
      } finally {
        await s.server.close();
      }
    }
    log(`scale (${build.label}): ${n(sizes.stale)} stale conversations`);
    const stale = await seeded(rig, build, template, {
      resumable: sizes.maps[0],
      stale: sizes.stale,
      turns: 1,
    });
    await stale.server.close();
    row("startup, server CPU", `${n(sizes.maps[0])} + ${n(sizes.stale)} stale`, "ms", [
      stale.startCpu,
    ]);
    for (const [i, turns] of sizes.turns.entries()) {
      log(`scale (${build.label}): resuming ${n(turns)}-turn conversations`);
      const s = await seeded(rig, build, template, {
        resumable: sizes.samples,
        stale: 0,
        turns,
      });
      try {
        const costs: number[] = [];
        for (const contextId of s.contexts) costs.push(await turnCpu(s.server, contextId));
        row("resuming turn, server CPU", `${n(turns)} turns`, "ms", costs, i === 0);
      } finally {
        await s.server.close();
      }
    }
    log(`scale (${build.label}): RSS over ${n(sizes.rssTurns[1])} turns`);
    const s = await seeded(rig, build, template, { resumable: 0, stale: 0, turns: 1 });
    try {
      const { contextId } = await blockingTurn(s.server.client, TURN_PROMPT);
      const rss: number[] = [];
      for (let turn = 1; turn < sizes.rssTurns[1]; turn++) {
        if (turn === sizes.rssTurns[0]) rss.push(await rssMb(s.server.server.pid));
        await blockingTurn(s.server.client, TURN_PROMPT, contextId);
      }
      rss.push(await rssMb(s.server.server.pid));
      row("server RSS", `after ${n(sizes.rssTurns[0])} turns`, "MB", [rss[0] ?? 0], true);
      row("server RSS", `after ${n(sizes.rssTurns[1])} turns`, "MB", [rss[1] ?? 0]);
    } finally {
      await s.server.close();
    }
  }
  return rows;
}

/** Server CPU (ms) of one blocking turn; a new conversation with `contextId` "". */
async function turnCpu(server: ExtraServer, contextId: string): Promise<number> {
  const pid = server.server.pid;
  const began = await cpuTimePreciseMs(pid);
  const turn = await blockingTurn(server.client, TURN_PROMPT, contextId);
  if (turn.error) throw new Error("scale: a turn ended in error");
  return (await cpuTimePreciseMs(pid)) - began;
}

/**
 * One real conversation of one turn, on this build: what the seeds copy. Its process is closed
 * when idle (1 s) and the template is read once the runtime has saved its cost totals at that
 * clean exit, as every evicted or restarted conversation's transcript has them.
 */
async function makeTemplate(rig: Rig): Promise<Template> {
  const server = await rig.extraServer({ sessions: { ...CONFIG.sessions, idleTimeoutMs: 1_000 } });
  try {
    await blockingTurn(server.client, TURN_PROMPT);
    for (let tries = 0; ; tries++) {
      try {
        const template = await readTemplate(server.cwd, server.configDir);
        if (template.lines.some((l) => l.includes('"cost-state"'))) return template;
        throw new Error("scale: the template's process has not saved its totals yet");
      } catch (err) {
        if (tries >= 300) throw err;
        await delay(100);
      }
    }
  } finally {
    await server.close();
  }
}

/** A server of `build` started on a workspace seeded with `seed`, and its CPU when serving. */
async function seeded(rig: Rig, build: Build, template: Template, seed: Seed) {
  let contexts: string[] = [];
  const server = await rig.extraServer(
    CONFIG,
    async (cwd, configDir) => {
      contexts = await seedWorkspace(template, cwd, configDir, seed);
    },
    build.cli,
  );
  const startCpu = await cpuTimePreciseMs(server.server.pid);
  return { server, startCpu, contexts };
}
