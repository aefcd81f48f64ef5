/**
 * `sessions.spares`: a one-shot conversation (a message in a new context) against a warm
 * follow-up turn, time to the first streamed chunk and to the final status, spares on and off,
 * under "shared" and under "worktree" isolation (a repository of `plan.sparesFiles` files), the
 * four servers in the same run and interleaved. Each server in turn gets a slot of 2 s: one new
 * conversation, then a warm turn of a conversation already live, then nothing until the slot
 * ends (one new conversation every 2 s: the spare has time to come back, and its start-up lands
 * in its own server's slot rather than in the next server's turns). A fifth server ("shared",
 * spares off, one process at most) measures a resumed conversation's first turn: two contexts
 * take turns, so each one's process was closed for the other's and its next message resumes.
 * Then a burst of new conversations at once (`plan.sparesBurst`: 8, quick 4) on each "shared"
 * server, against the same burst with spares off. `BENCH_SPARES_BEFORE=<a built checkout>`: a
 * server of that build with spares on joins each isolation's slots (rows "…, before"), for a
 * before/after in the same run; `BENCH_WORKSPACE_BEFORE=<a built checkout>` (issue 46: a build
 * whose worktrees are linked worktrees of the workspace's repository): the same, for the
 * "worktree" slots only. Every server starts first, together.
 */
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { streamingTurn } from "../a2a.js";
import type { Plan } from "../plan.js";
import { TURN_PROMPT, type ExtraServer, type Rig } from "../rig.js";
import type { Row } from "../stats.js";
import { startTogether } from "../together.js";
import { generateRepository } from "./workspace.js";

const GAP_MS = 2_000;

interface Side {
  readonly isolation: "shared" | "worktree";
  readonly spares: number;
  /** The resume side: every turn resumes a conversation whose process was closed. */
  readonly resumes: boolean;
  /** The resume side's two contexts. */
  readonly contexts: string[];
  /** Another build's server (`BENCH_SPARES_BEFORE`). */
  readonly before: boolean;
  readonly server: ExtraServer;
  context: string;
  readonly oneShotFirst: number[];
  readonly oneShotFinal: number[];
  readonly warmFinal: number[];
  readonly burstFinal: number[];
}

type SideOptions = Pick<Side, "isolation" | "spares"> & {
  files: number;
  resumes?: boolean;
  cli?: string;
};

function startServer(rig: Rig, o: SideOptions): Promise<ExtraServer> {
  const config = {
    sessions: { spares: o.spares, maxLive: o.resumes === true ? 1 : 32, minIdleBeforeEvictMs: 0 },
    claude: { isolation: o.isolation },
  };
  const prepare =
    o.isolation === "worktree" ? (cwd: string) => generateRepository(cwd, o.files) : undefined;
  return rig.extraServer(config, prepare, o.cli);
}

function sideOf(server: ExtraServer, o: SideOptions): Side {
  return {
    isolation: o.isolation,
    spares: o.spares,
    resumes: o.resumes ?? false,
    contexts: [],
    before: o.cli !== undefined,
    server,
    context: "",
    oneShotFirst: [],
    oneShotFinal: [],
    warmFinal: [],
    burstFinal: [],
  };
}

/** The earlier build whose server joins the isolation's slots ("" for none). */
function beforeOf(isolation: "shared" | "worktree"): string {
  const spares = process.env.BENCH_SPARES_BEFORE ?? "";
  if (spares !== "" || isolation === "shared") return spares;
  return process.env.BENCH_WORKSPACE_BEFORE ?? "";
}

export async function spares(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const sides: Side[] = [];
  let errors = 0;
  try {
    const files = plan.sparesFiles;
    const wanted: SideOptions[] = [];
    for (const isolation of ["shared", "worktree"] as const) {
      for (const n of [1, 0]) wanted.push({ isolation, spares: n, files });
      const before = beforeOf(isolation);
      if (before !== "") {
        wanted.push({ isolation, spares: 1, files, cli: join(before, "dist", "cli.js") });
      }
    }
    wanted.push({ isolation: "shared", spares: 0, files, resumes: true });
    const servers = await startTogether(wanted.map((o) => startServer(rig, o)));
    sides.push(...servers.map((server, i) => sideOf(server, wanted[i] as SideOptions)));
    for (const s of sides) {
      s.context = (await streamingTurn(s.server.client, TURN_PROMPT)).contextId;
      if (s.resumes) {
        s.contexts.push(s.context, (await streamingTurn(s.server.client, TURN_PROMPT)).contextId);
      }
    }
    for (let round = 0; round < plan.sparesRounds; round++) {
      // Alternate the order, so no side always follows the same one.
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const s of order) {
        const started = Date.now();
        if (s.resumes) {
          // The other context's process holds the one slot: this one's was closed for it.
          const resumed = await streamingTurn(s.server.client, TURN_PROMPT, s.contexts[round % 2]);
          if (resumed.error) errors++;
          s.oneShotFirst.push(resumed.firstChunkMs);
          s.oneShotFinal.push(resumed.finalMs);
        } else {
          const one = await streamingTurn(s.server.client, TURN_PROMPT);
          const warm = await streamingTurn(s.server.client, TURN_PROMPT, s.context);
          if (one.error || warm.error) errors++;
          s.oneShotFirst.push(one.firstChunkMs);
          s.oneShotFinal.push(one.finalMs);
          s.warmFinal.push(warm.finalMs);
        }
        await delay(Math.max(0, GAP_MS - (Date.now() - started)));
      }
    }
    for (const s of sides.filter((x) => x.isolation === "shared" && !x.resumes && !x.before)) {
      await delay(GAP_MS);
      const burst = await Promise.all(
        Array.from({ length: plan.sparesBurst }, () => streamingTurn(s.server.client, TURN_PROMPT)),
      );
      errors += burst.filter((t) => t.error).length;
      s.burstFinal.push(...burst.map((t) => t.finalMs));
    }
    if (errors > 0) log(`spares: ${errors} turn(s) ended in error`);
  } finally {
    await Promise.all(sides.map((s) => s.server.close()));
  }
  const rows = sides.flatMap((s) => (s.resumes ? resumeRows(s) : rowsOf(s, plan)));
  // One scenario's groups together, in the order they first appear.
  const key = (r: Row) => `${r.scenario}\0${r.group}`;
  const order = [...new Set(rows.map(key))];
  return rows.sort((a, b) => order.indexOf(key(a)) - order.indexOf(key(b)));
}

/** A side's rows; spares on (this build) carries the baselines and targets of its isolation. */
function rowsOf(s: Side, plan: Plan): Row[] {
  const files = plan.sparesFiles;
  const scenario =
    s.isolation === "shared"
      ? "spares (shared)"
      : `spares (worktree, ${files.toLocaleString("en-US")} files)`;
  const on = s.spares > 0 && !s.before;
  const spares =
    s.spares > 0 ? `spares on (${s.spares})${s.before ? ", before" : ""}` : "spares off";
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
      ...(s.spares === 0 && { baseline: true }),
    },
  ];
  if (s.burstFinal.length > 0) {
    rows.push({
      scenario,
      group: `burst of ${plan.sparesBurst} new, final`,
      variant: spares,
      unit: "ms",
      samples: s.burstFinal,
      ...(on ? { target: "≤ 1.0×" } : { baseline: true }),
    });
  }
  return rows;
}

/** The resume side's rows: against the one-shot with spares off (spawn-fresh) of the same run. */
function resumeRows(s: Side): Row[] {
  const variant = "resumed (process closed for another), spares off";
  return [
    { scenario: "spares (shared)", group: "final", variant, unit: "ms", samples: s.oneShotFinal },
    {
      scenario: "spares (shared)",
      group: "first chunk",
      variant,
      unit: "ms",
      samples: s.oneShotFirst,
    },
  ];
}
