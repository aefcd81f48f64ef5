/**
 * How the server's own cost grows with its work (issue 52), in server CPU time (the sum of its
 * threads' schedstat): each row at a small and a big size, the ratio big over small.
 * - new conversation: the first turn of a new context on a server whose map holds N conversations,
 *   once its startup sweep is done;
 * - startup: spawn to serving (its CPU when `/healthz` first answers) with N resumable
 *   conversations, and with 100 resumable plus S whose transcripts are gone (stale); the first
 *   start imports the seed file, so each is also measured on a second start (the steady state:
 *   the map in the store), and the stale one with S whose transcripts went since the last start;
 * - resuming turn: the first turn of a conversation T turns long, after a restart;
 * - memory: the server's RSS, its JS heap and what is outside it, each read after a garbage
 *   collection (`bench/server-memory.ts`), after 10 and after M turns of one conversation, with
 *   the tasks in the SQLite store (and its page cache), the same with a 2 MB page cache, and in
 *   the memory store.
 * Maps are seeded as the seed-format JSON file, transcripts as copies of a real one
 * (`bench/scale-seed.ts`). With `BENCH_BEFORE`, that build runs the same rows. Quick mode uses
 * smaller sizes, named in the rows; `BENCH_SCALE_TURNS` sets the long conversation's length.
 */
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { blockingTurn } from "../a2a.js";
import type { Plan } from "../plan.js";
import { DEFAULT_SQLITE_PATH, type ConfigInput } from "../../src/config/schema.js";
import { cpuTimePreciseMs } from "../proc.js";
import { TURN_PROMPT, type ExtraServer, type Rig } from "../rig.js";
import {
  dropTranscripts,
  readTemplate,
  seedWorkspace,
  type Seed,
  type Seeded,
  type Template,
} from "../scale-seed.js";
import { memoryProbe, type MemoryReading } from "../server-memory.js";
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
        // The steady state: the map is in the store now (the first start imported the file).
        await s.server.restart();
        row(
          "second start, server CPU",
          `${n(size)} conversations`,
          "ms",
          [await cpuTimePreciseMs(s.server.server.pid)],
          i === 0,
        );
        await sweepDone(s.server.server.url);
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
    log(`scale (${build.label}): ${n(sizes.stale)} conversations gone stale since the last start`);
    const gone = await seeded(rig, build, template, {
      resumable: sizes.maps[0] + sizes.stale,
      stale: 0,
      turns: 1,
    });
    try {
      // Their transcripts go while the server is down (a cleaned ~/.claude): in the store's
      // map, not in a file to import.
      gone.server.server.kill("SIGTERM");
      await gone.server.server.exited;
      await dropTranscripts(
        gone.server.cwd,
        gone.server.configDir,
        gone.sessionIds.slice(sizes.maps[0]),
      );
      await gone.server.restart();
      row("second start, server CPU", `${n(sizes.maps[0])} + ${n(sizes.stale)} gone stale`, "ms", [
        await cpuTimePreciseMs(gone.server.server.pid),
      ]);
    } finally {
      await gone.server.close();
    }
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
    for (const store of STORES) {
      log(`scale (${build.label}): memory over ${n(sizes.rssTurns[1])} turns, ${store.label}`);
      const m = await memoryOver(rig, build, sizes.rssTurns, store.config, store.env);
      const at = (i: 0 | 1) => `after ${n(sizes.rssTurns[i])} turns`;
      const measures = [
        ["server RSS", (r: MemoryReading) => r.rssMb],
        ["server JS heap", (r: MemoryReading) => r.heapUsedMb],
        ["server memory outside the JS heap", (r: MemoryReading) => r.outsideHeapMb],
      ] as const;
      for (const [what, of] of measures) {
        const group = `${what} after a collection, ${store.label}`;
        row(group, at(0), "MB", [of(m.early)], true);
        row(group, at(1), "MB", [of(m.late)]);
      }
      if (m.storeFileMb !== undefined) {
        row(`store's file, ${store.label}`, at(1), "MiB", [m.storeFileMb]);
      }
    }
  }
  return rows;
}

/**
 * Where the memory rows' tasks are kept: the SQLite store (its page cache, up to 32 MiB, fills as
 * its file grows), the same with every connection's cache at 2 MB (what is not the cache), and
 * all in memory.
 */
const STORES = [
  { label: "SQLite store", config: {}, env: {} },
  {
    label: "SQLite store, 2 MB page cache",
    config: {},
    env: { MEMORY_PROBE_SQLITE_CACHE_KIB: "2000" },
  },
  { label: "memory store", config: { store: { type: "memory" } }, env: {} },
] as const satisfies readonly {
  label: string;
  config: ConfigInput;
  env: Readonly<Record<string, string>>;
}[];

/**
 * One conversation of `turns[1]` turns on a new server of `build`, its memory read after a
 * collection at `turns[0]` and at the end; with SQLite, the store's file (and its log) then.
 */
async function memoryOver(
  rig: Rig,
  build: Build,
  turns: readonly [number, number],
  config: ConfigInput,
  env: Readonly<Record<string, string>>,
): Promise<{ early: MemoryReading; late: MemoryReading; storeFileMb: number | undefined }> {
  const dir = await mkdtemp(join(tmpdir(), "claude-a2a-bench-memory-"));
  const probe = memoryProbe(dir);
  const server = await rig.extraServer({ ...CONFIG, ...config }, undefined, build.cli, {
    ...probe.extras,
    env: { ...probe.extras.env, ...env },
  });
  try {
    const pid = server.server.pid;
    const { contextId } = await blockingTurn(server.client, TURN_PROMPT);
    let early: MemoryReading | undefined;
    for (let turn = 1; turn < turns[1]; turn++) {
      if (turn === turns[0]) early = await probe.read(pid);
      const done = await blockingTurn(server.client, TURN_PROMPT, contextId);
      if (done.error) throw new Error("scale: a turn ended in error");
    }
    const late = await probe.read(pid);
    const file = join(server.cwd, DEFAULT_SQLITE_PATH);
    const sizes = await Promise.all([file, `${file}-wal`].map((f) => stat(f).catch(() => null)));
    const bytes = sizes.reduce((sum, st) => sum + (st?.size ?? 0), 0);
    return { early: early ?? late, late, storeFileMb: bytes > 0 ? bytes / 2 ** 20 : undefined };
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
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
export async function makeTemplate(rig: Rig): Promise<Template> {
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
export async function seeded(rig: Rig, build: Build, template: Template, seed: Seed) {
  let seededIds: Seeded = { contexts: [], sessionIds: [] };
  const server = await rig.extraServer(
    CONFIG,
    async (cwd, configDir) => {
      seededIds = await seedWorkspace(template, cwd, configDir, seed);
    },
    build.cli,
  );
  const startCpu = await cpuTimePreciseMs(server.server.pid);
  // The startup sweep checks each mapping after the server listens: its CPU is not a turn's.
  await sweepDone(server.server.url);
  return { server, startCpu, ...seededIds };
}

/** Once `/healthz` says the session sweep is done (a build without one: at once), bounded. */
async function sweepDone(url: string): Promise<void> {
  const deadline = Date.now() + 600_000;
  for (;;) {
    const health = (await (await fetch(`${url}/healthz`)).json()) as {
      sessionSweep?: { state: string };
    };
    if (health.sessionSweep === undefined || health.sessionSweep.state === "done") return;
    if (Date.now() > deadline) throw new Error("scale: the session sweep did not end in 10 min");
    await delay(100);
  }
}
