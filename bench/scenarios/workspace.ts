/**
 * Workspace isolation (`claude.isolation`): what a conversation's own git worktree costs. Two
 * servers per repository size (1,000 and 20,000 generated files, one commit), "shared" and
 * "worktree", each on its own copy of the repository, measured interleaved:
 *
 * - new conversation: a streaming turn in a new context, to its first artifact chunk (the
 *   worktree is created before the Claude Code process starts, so all of it is in this figure);
 * - next turn: a second turn in the same context (its worktree exists: nothing should be added);
 * - end-of-task commit and worktree add: `WorktreeManager.finish` with one changed file, and
 *   `prepare` of a new conversation, measured directly (in this process) on a third copy:
 *   without a spare worktree (`git worktree add`) and taking a ready spare (move + switch).
 *
 * Target (issue 20): under 1 s added at 20,000 files, nothing per turn after the first.
 */
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import { pino } from "pino";
import { freePort } from "../../test/support/a2a/harness.js";
import { createRuntimeSandbox, type RuntimeSandbox } from "../../test/support/sandbox.js";
import {
  killSandboxProcesses,
  spawnServer,
  writeTestConfig,
  type ServerProcess,
} from "../../test/support/server-process.js";
import { WorktreeManager } from "../../src/workspace/worktrees/manager.js";
import { streamingTurn } from "../a2a.js";
import type { Plan } from "../plan.js";
import { stopServer, TURN_PROMPT, type Rig } from "../rig.js";
import type { Row } from "../stats.js";
import { startTogether } from "../together.js";

type Isolation = "shared" | "worktree";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@localhost", ...args], {
    cwd,
    stdio: "pipe",
  });

/** A repository of `files` small source files, 100 per folder, in one commit. */
export async function generateRepository(dir: string, files: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < files; i += 100) {
    const folder = join(dir, "src", `m${Math.floor(i / 100)}`);
    await mkdir(folder, { recursive: true });
    const batch = [];
    for (let j = i; j < Math.min(i + 100, files); j++) {
      batch.push(writeFile(join(folder, `f${j}.ts`), `export const v${j} = ${j};\n`));
    }
    await Promise.all(batch);
  }
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "generated");
}

interface Served {
  readonly client: Client;
  close(): Promise<void>;
}

async function serve(
  rig: Rig,
  files: number,
  isolation: Isolation,
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

/** `prepare` of new conversations and `finish` with one changed file, in this process. */
async function direct(rig: Rig, files: number, rounds: number) {
  const sandbox = await createRuntimeSandbox({ modelUrl: rig.model.url });
  try {
    await generateRepository(sandbox.cwd, files);
    const open = (spare: boolean) =>
      WorktreeManager.open({
        cwd: sandbox.cwd,
        dir: ".claude/worktrees",
        serverPaths: [],
        logger: pino({ level: "silent" }),
        spare,
      });
    const manager = await open(false);
    const spared = await open(true);
    const add: number[] = [];
    const claim: number[] = [];
    const commit: number[] = [];
    const unchanged: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const conversation = { key: `bench|c${i}`, contextId: `c${i}` };
      // No spare being made meanwhile: it would share the disk with this add.
      await spared.spare.settled();
      let t = performance.now();
      const cwd = await manager.prepare(conversation);
      add.push(performance.now() - t);
      await writeFile(join(cwd, "src", "m0", "f0.ts"), `export const v0 = ${i + 1};\n`);
      t = performance.now();
      const made = await manager.finish(conversation, `t${i}`, "completed");
      // The same first task with the spare ready (built in the background meanwhile).
      await spared.spare.settled();
      const other = { key: `bench|s${i}`, contextId: `s${i}` };
      t = performance.now();
      await spared.prepare(other);
      claim.push(performance.now() - t);
      await spared.finish(other, `s${i}`, "completed");
      commit.push(performance.now() - t);
      if (made === undefined) throw new Error("workspace: the commit made nothing");
      await manager.prepare(conversation);
      t = performance.now();
      await manager.finish(conversation, `u${i}`, "completed");
      unchanged.push(performance.now() - t);
    }
    await spared.close();
    return { add, claim, commit, unchanged };
  } finally {
    await sandbox.cleanup();
  }
}

export async function workspace(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const scenario = "workspace";
  const rounds = plan.workspaceRounds;
  const rows: Row[] = [];
  for (const files of plan.workspaceSizes) {
    const n = `${files.toLocaleString("en-US")} files`;
    const t0 = performance.now();
    const [shared, worktree] = await startTogether([
      serve(rig, files, "shared"),
      serve(rig, files, "worktree"),
    ]);
    const servers = { shared, worktree };
    log(`workspace: two servers on ${n} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const first: Record<Isolation, number[]> = { shared: [], worktree: [] };
    const next: Record<Isolation, number[]> = { shared: [], worktree: [] };
    let errors = 0;
    try {
      // Warm-up: the first process of each server pays for the runtime's own first start.
      for (const s of Object.values(servers)) await streamingTurn(s.client, TURN_PROMPT);
      for (let r = 0; r < rounds; r++) {
        // Interleaved, and the order alternates, so neither variant always goes first.
        const order: Isolation[] = r % 2 === 0 ? ["shared", "worktree"] : ["worktree", "shared"];
        for (const variant of order) {
          const client = servers[variant].client;
          const a = await streamingTurn(client, TURN_PROMPT);
          const b = await streamingTurn(client, TURN_PROMPT, a.contextId);
          if (a.error || b.error) errors++;
          first[variant].push(a.firstChunkMs);
          next[variant].push(b.firstChunkMs);
        }
      }
    } finally {
      await Promise.all(Object.values(servers).map((s) => s.close()));
    }
    if (errors > 0) log(`workspace: ${errors} turn(s) on ${n} did not complete`);
    const added = first.worktree.map((ms, i) => ms - (first.shared[i] ?? Number.NaN));
    const addedNext = next.worktree.map((ms, i) => ms - (next.shared[i] ?? Number.NaN));
    rows.push(
      {
        scenario,
        group: `new conversation, ${n}`,
        variant: "shared",
        unit: "ms",
        samples: first.shared,
        baseline: true,
      },
      {
        scenario,
        group: `new conversation, ${n}`,
        variant: "worktree",
        unit: "ms",
        samples: first.worktree,
      },
      {
        scenario,
        group: `added by worktree, ${n}`,
        variant: "new conversation",
        unit: "ms",
        samples: added,
        ...(files === 20_000 && { target: "< 1000 ms" }),
      },
      {
        scenario,
        group: `next turn, ${n}`,
        variant: "shared",
        unit: "ms",
        samples: next.shared,
        baseline: true,
      },
      {
        scenario,
        group: `next turn, ${n}`,
        variant: "worktree",
        unit: "ms",
        samples: next.worktree,
        target: "≈ 1×",
      },
      {
        scenario,
        group: `added by worktree, ${n}`,
        variant: "next turn",
        unit: "ms",
        samples: addedNext,
        target: "≈ 0 ms",
      },
    );
    const d = await direct(rig, files, rounds);
    rows.push(
      {
        scenario,
        group: `new worktree, ${n}`,
        variant: "worktree add (prepare, no spare)",
        unit: "ms",
        samples: d.add,
        baseline: true,
      },
      {
        scenario,
        group: `new worktree, ${n}`,
        variant: "spare taken (prepare)",
        unit: "ms",
        samples: d.claim,
      },
      {
        scenario,
        group: `git, ${n}`,
        variant: "end-of-task commit, 1 file",
        unit: "ms",
        samples: d.commit,
      },
      {
        scenario,
        group: `git, ${n}`,
        variant: "end of a task that changed nothing",
        unit: "ms",
        samples: d.unchanged,
      },
    );
  }
  return rows;
}
