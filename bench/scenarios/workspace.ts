/**
 * Workspace isolation (`claude.isolation`): what a conversation's own worktree costs.
 *
 * Through servers, per repository size (1,000 and 20,000 generated files, one commit): "shared"
 * and "worktree" (this build: a repository per conversation, issue 46), each on its own copy of
 * the repository, and with `BENCH_WORKSPACE_BEFORE=<a built checkout>` a third, "worktree" on
 * that build's `dist/cli.js` (before issue 46: a linked worktree per conversation), measured
 * interleaved:
 *
 * - new conversation: a streaming turn in a new context, to its first artifact chunk (the
 *   worktree is created before the Claude Code process starts, so all of it is in this figure;
 *   each server keeps its spare worktree, as by default);
 * - next turn: a second turn in the same context (its worktree exists: nothing should be added).
 *
 * Then in this process (bench/workspace-layouts.ts), today's layout (linked worktrees, with the
 * git commands of the code before issue 46) against the new one (the real `WorktreeManager`),
 * interleaved: a new worktree without a spare and taking a spare, the end-of-task commit of one
 * file after each, a task that changed nothing, the next spare's build, the disk a conversation
 * adds, and what stays in the workspace's repository.
 *
 * Targets: issue 20, under 1 s added at 20,000 files, nothing per turn after the first; issue 46,
 * the new layout against today's (disk, time to a first task, time at 20,000 files).
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import { freePort } from "../../test/support/a2a/harness.js";
import { createRuntimeSandbox, type RuntimeSandbox } from "../../test/support/sandbox.js";
import {
  killSandboxProcesses,
  spawnServer,
  writeTestConfig,
  type ServerProcess,
} from "../../test/support/server-process.js";
import { streamingTurn } from "../a2a.js";
import type { Plan } from "../plan.js";
import { stopServer, TURN_PROMPT, type Rig } from "../rig.js";
import type { Row } from "../stats.js";
import { startTogether } from "../together.js";
import { compareLayouts, generateRepository, type LayoutSamples } from "../workspace-layouts.js";

export { generateRepository } from "../workspace-layouts.js";

type Isolation = "shared" | "worktree";
/** The servers: "before" is the `BENCH_WORKSPACE_BEFORE` build's, under "worktree". */
type Side = Isolation | "before";

const NAMES: Record<Side, string> = {
  shared: "shared",
  worktree: "new: repository per conversation",
  before: "today: linked worktree (BENCH_WORKSPACE_BEFORE)",
};
const TODAY = "today: linked worktree";
const NEW = "new: repository per conversation";

interface Served {
  readonly client: Client;
  close(): Promise<void>;
}

async function serve(
  rig: Rig,
  files: number,
  isolation: Isolation,
  /** Another build's compiled CLI (`BENCH_WORKSPACE_BEFORE`). */
  cli?: string,
): Promise<Served & { sandbox: RuntimeSandbox }> {
  const sandbox = await createRuntimeSandbox({ modelUrl: rig.model.url });
  let server: ServerProcess | undefined;
  try {
    await generateRepository(sandbox.cwd, files);
    await writeTestConfig(sandbox.cwd, {
      claude: { isolation },
      sessions: { maxLive: 4, minIdleBeforeEvictMs: 0, idleTimeoutMs: 10_000 },
    });
    server = await spawnServer({
      built: rig.built,
      cwd: sandbox.cwd,
      port: await freePort(),
      env: { ...sandbox.env, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info" },
      ...(cli !== undefined && { cli }),
    });
    const client = await new ClientFactory().createFromUrl(server.url);
    const running = server;
    return {
      sandbox,
      client,
      async close() {
        await stopServer(running);
        await killSandboxProcesses(sandbox.configDir);
        await sandbox.cleanup();
      },
    };
  } catch (err) {
    server?.kill("SIGKILL");
    await killSandboxProcesses(sandbox.configDir);
    await sandbox.cleanup();
    throw err;
  }
}

export async function workspace(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const rounds = plan.workspaceRounds;
  const before = process.env.BENCH_WORKSPACE_BEFORE ?? "";
  const sides: Side[] = before === "" ? ["shared", "worktree"] : ["shared", "worktree", "before"];
  const rows: Row[] = [];
  for (const files of plan.workspaceSizes) {
    const n = `${files.toLocaleString("en-US")} files`;
    const t0 = performance.now();
    const started = await startTogether(
      sides.map((side) =>
        side === "before"
          ? serve(rig, files, "worktree", join(before, "dist", "cli.js"))
          : serve(rig, files, side),
      ),
    );
    const servers = new Map(sides.map((side, i) => [side, started[i] as Served]));
    log(
      `workspace: ${sides.length} servers on ${n} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const first = new Map(sides.map((side) => [side, [] as number[]]));
    const next = new Map(sides.map((side) => [side, [] as number[]]));
    let errors = 0;
    try {
      // Warm-up: the first process of each server pays for the runtime's own first start.
      for (const s of servers.values()) await streamingTurn(s.client, TURN_PROMPT);
      for (let r = 0; r < rounds; r++) {
        // Interleaved, and each side goes first in turn.
        for (const at of sides.map((_, i) => (i + r) % sides.length)) {
          const side = sides[at] as Side;
          const client = (servers.get(side) as Served).client;
          const a = await streamingTurn(client, TURN_PROMPT);
          const b = await streamingTurn(client, TURN_PROMPT, a.contextId);
          if (a.error || b.error) errors++;
          first.get(side)?.push(a.firstChunkMs);
          next.get(side)?.push(b.firstChunkMs);
        }
      }
    } finally {
      await Promise.all([...servers.values()].map((s) => s.close()));
    }
    if (errors > 0) log(`workspace: ${errors} turn(s) on ${n} did not complete`);
    rows.push(...serverRows(n, files, sides, first, next));
    const t1 = performance.now();
    const { today, repo } = await compareLayouts(files, plan.workspaceLayoutRounds);
    log(`workspace: both layouts on ${n} in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    rows.push(...layoutRows(n, today, repo));
  }
  return rows;
}

function serverRows(
  n: string,
  files: number,
  sides: readonly Side[],
  first: ReadonlyMap<Side, number[]>,
  next: ReadonlyMap<Side, number[]>,
): Row[] {
  const scenario = "workspace";
  const ms = "ms" as const;
  const samples = (m: ReadonlyMap<Side, number[]>, side: Side) => m.get(side) ?? [];
  const added = (m: ReadonlyMap<Side, number[]>, side: Side) =>
    samples(m, side).map((v, i) => v - (samples(m, "shared")[i] ?? Number.NaN));
  const isolated = sides.filter((s) => s !== "shared");
  return [
    ...sides.map((side) => ({
      scenario,
      group: `new conversation, ${n}`,
      variant: NAMES[side],
      unit: ms,
      samples: samples(first, side),
      ...(side === "shared" && { baseline: true }),
    })),
    ...isolated.map((side) => ({
      scenario,
      group: `added by worktree, ${n}`,
      variant: `new conversation, ${NAMES[side]}`,
      unit: ms,
      samples: added(first, side),
      ...(files === 20_000 && { target: "< 1000 ms" }),
    })),
    ...sides.map((side) => ({
      scenario,
      group: `next turn, ${n}`,
      variant: NAMES[side],
      unit: ms,
      samples: samples(next, side),
      ...(side === "shared" ? { baseline: true } : { target: "≈ 1×" }),
    })),
    ...isolated.map((side) => ({
      scenario,
      group: `added by worktree, ${n}`,
      variant: `next turn, ${NAMES[side]}`,
      unit: ms,
      samples: added(next, side),
      target: "≈ 0 ms",
    })),
  ];
}

/** Today's layout (the baseline of each group) against the new one, measured in this process. */
function layoutRows(n: string, today: LayoutSamples, repo: LayoutSamples): Row[] {
  const scenario = "workspace: layouts";
  const MiB = (bytes: readonly number[]) => bytes.map((b) => b / 2 ** 20);
  const pair = (
    group: string,
    pick: (s: LayoutSamples) => readonly number[],
    unit: Row["unit"] = "ms",
  ): Row[] => [
    {
      scenario,
      group: `${group}, ${n}`,
      variant: TODAY,
      unit,
      samples: pick(today),
      baseline: true,
    },
    { scenario, group: `${group}, ${n}`, variant: NEW, unit, samples: pick(repo) },
  ];
  return [
    ...pair("new worktree, no spare (prepare)", (s) => s.add),
    ...pair("new worktree, spare taken (prepare)", (s) => s.take),
    ...pair("end-of-task commit, 1 file, after no spare", (s) => s.commitAdded),
    ...pair("end-of-task commit, 1 file, after spare taken", (s) => s.commitTaken),
    ...pair("end of a task that changed nothing", (s) => s.unchanged),
    ...pair("next spare built (background)", (s) => s.spareBuild),
    {
      scenario,
      group: `branch published to the workspace (anonymous caller), ${n}`,
      variant: NEW,
      unit: "ms",
      samples: repo.publish,
    },
    ...pair("disk per conversation (after 1 commit)", (s) => MiB(s.disk), "MiB"),
    ...pair("of which git metadata", (s) => MiB(s.gitDisk), "MiB"),
    ...pair("workspace's .git growth per conversation", (s) => MiB(s.workspaceGrowth), "MiB"),
  ];
}
