/**
 * `npm run bench`: figures, not pass/fail. Starts the scripted model (here) and our server (its own
 * process), runs each scenario with warm-up and interleaved variants, and prints one table with
 * median, p95 and the ratio against the baseline measured in the same run.
 *
 *   BENCH_QUICK=1              the reduced run: every scenario at small sizes (under three minutes)
 *   BENCH_ONLY=long,store      only these scenarios (warm, long, concurrency, store, pool, workspace, compare, fleet, sandbox, resume, spares, client, scale, trigger, delivery)
 *   BENCH_BEFORE=<checkout>    `compare`: the same turns on that build's dist/cli.js, interleaved
 *   BENCH_SPARES_BEFORE=<checkout>  `spares`: a server of that build with spares on joins the slots
 *   BENCH_WORKSPACE_BEFORE=<checkout>  `workspace`: a "worktree" server of that build joins the
 *                              rounds; `spares`: one with spares on joins the "worktree" slots
 *   BENCH_STORE_BULK=<n>       the store scenario's second server's task count (0: none)
 *   BENCH_LOG_LEVEL=debug      the server's log level (default info, as in production)
 *
 * See docs/BENCHMARKS.md for what each scenario measures.
 */
import { cpus, loadavg, totalmem } from "node:os";
import { performance } from "node:perf_hooks";
import { planFrom, type ScenarioName, type Plan } from "./plan.js";
import { startRig, type Rig } from "./rig.js";
import { compare } from "./scenarios/compare.js";
import { clientStart } from "./scenarios/client-start.js";
import { concurrency } from "./scenarios/concurrency.js";
import { fleet } from "./scenarios/fleet.js";
import { longAnswer } from "./scenarios/long.js";
import { pool } from "./scenarios/pool.js";
import { resume } from "./scenarios/resume.js";
import { spares } from "./scenarios/spares.js";
import { store } from "./scenarios/store.js";
import { warmTurn } from "./scenarios/warm.js";
import { workspace } from "./scenarios/workspace.js";
import { sandbox } from "./scenarios/sandbox.js";
import { scale } from "./scenarios/scale.js";
import { trigger } from "./scenarios/trigger.js";
import { delivery } from "./scenarios/delivery.js";
import { figures, type Row } from "./stats.js";
import { renderTable } from "./table.js";

type Log = (line: string) => void;

function run(name: ScenarioName, rig: Rig, plan: Plan, log: Log): Promise<Row[]> {
  switch (name) {
    case "warm":
      return warmTurn(rig, plan, log);
    case "long":
      return longAnswer(rig, plan, log);
    case "concurrency":
      return concurrency(rig, plan);
    case "store":
      return store(rig, plan, log);
    case "pool":
      return pool(rig, plan, log);
    case "workspace":
      return workspace(rig, plan, log);
    case "compare":
      return compare(rig, plan, log);
    case "fleet":
      return fleet(rig, plan, log);
    case "sandbox":
      return sandbox(rig, plan, log);
    case "resume":
      return resume(rig, plan, log);
    case "spares":
      return spares(rig, plan, log);
    case "scale":
      return scale(rig, plan, log);
    case "client":
      return clientStart(rig, plan, log);
    case "trigger":
      return trigger(rig, plan, log);
    case "delivery":
      return delivery(rig, plan, log);
  }
}

const log: Log = (line) => process.stderr.write(`${line}\n`);
const plan = planFrom(process.env);
const began = performance.now();
const rig = await startRig();
log(
  `bench: model, server and clients ready in ${((performance.now() - began) / 1000).toFixed(0)} s`,
);
const rows: Row[] = [];
// How loaded the machine was (the 1-minute load average, every 2 s): the table says it per
// scenario, since other work on the machine moves every absolute figure.
let loads: number[] = [];
const sampler = setInterval(() => loads.push(loadavg()[0] ?? 0), 2_000);
try {
  for (const name of plan.scenarios) {
    const t = performance.now();
    log(`bench: ${name}...`);
    loads = [loadavg()[0] ?? 0];
    const scenarioRows = await run(name, rig, plan, log);
    const scenario = scenarioRows[0]?.scenario ?? name;
    rows.push(...scenarioRows, {
      scenario,
      group: "machine load (1-min avg)",
      variant: `${cpus().length} cores, sampled every 2 s`,
      unit: "load",
      samples: loads,
    });
    log(`bench: ${name} took ${((performance.now() - t) / 1000).toFixed(0)} s`);
  }
} finally {
  clearInterval(sampler);
  const closing = performance.now();
  await rig.close();
  log(`bench: stopped in ${((performance.now() - closing) / 1000).toFixed(0)} s`);
}
const cpu = cpus()[0]?.model ?? "unknown CPU";
process.stdout.write(
  [
    "",
    `claude-a2a benchmarks${plan.quick ? " (BENCH_QUICK)" : ""}: scripted model, real Claude Code runtime, 127.0.0.1`,
    `server: ${rig.built ? "dist/cli.js" : "src/cli.ts through tsx (dist/ did not build)"}, log level ${process.env.BENCH_LOG_LEVEL ?? "info"}`,
    `machine: ${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GB, Node ${process.version}; ${new Date().toISOString()}`,
    "",
    renderTable(figures(rows)),
    "",
    `total ${((performance.now() - began) / 1000).toFixed(0)} s`,
    "",
  ].join("\n"),
);
