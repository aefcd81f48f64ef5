/**
 * Delivery (issue 50, docs/delivery.md): what a delivery adds to a task beyond its checks' own
 * run time. One "worktree" server with one check (`true`: its run time is the cost of starting a
 * check, which the proof of work's `durationMs` measures). Rounds interleave a plain streaming
 * task and a delivered one (`metadata.deliver: true`), each in a new conversation; both run the
 * same warm turn. Reported per task: wall time and the server's CPU (its own threads: the check
 * runs in a child), and what the delivery adds, which is the delivered task's time minus the plain
 * task's and minus the checks' `durationMs`. Then its steps after the checks, each from its own
 * `durationMs` in the proof of work (the review's rounds, the push, the pull request, the merge),
 * where this build has them; "not in this build" otherwise.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { StreamResponse } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import type { Plan } from "../plan.js";
import { cpuTimePreciseMs } from "../proc.js";
import { TURN_PROMPT, type Rig } from "../rig.js";
import type { Row } from "../stats.js";
import { sendRequest, userMessage } from "../../test/support/a2a/harness.js";
import { a2aClient } from "../../test/support/harness/clients.js";
import { withControl } from "../../test/support/harness/control.js";
import { startForgeFake } from "../../test/support/forge-fake.js";
import { startGitHttpServer } from "../../test/support/git-http-server.js";

/** The steps after the checks, as the proof of work records each (when this build has it). */
const STEPS = ["review", "push", "pull request", "merge"] as const;
type Step = (typeof STEPS)[number];
const STEP_LABEL: Record<Step, string> = {
  review: "review (the reviewer's session)",
  push: "push (the server's git)",
  "pull request": "forge calls (find, open or update the pull request)",
  merge: "merge (git, not the wait for the answer)",
};

interface Sample {
  readonly wallMs: number;
  readonly cpuMs: number;
  /** The checks' own run time: the sum of the proof of work's `checks[].durationMs`. */
  readonly checksMs: number;
  readonly steps: Partial<Record<Step, number>>;
}

/** A proof of work, read loosely: the steps other builds add may be absent. */
interface ProofShape {
  readonly checks?: readonly { durationMs?: number }[];
  readonly reviewRounds?: readonly { durationMs?: number }[];
  readonly push?: { durationMs?: number };
  readonly pullRequest?: { durationMs?: number };
  readonly merge?: { durationMs?: number };
}

const sum = (xs: readonly { durationMs?: number }[] | undefined): number | undefined =>
  xs === undefined ? undefined : xs.reduce((t, x) => t + (x.durationMs ?? 0), 0);

/** Each step's milliseconds that the proof of work holds. Pure. */
function stepTimes(proof: ProofShape): Partial<Record<Step, number>> {
  const times: Partial<Record<Step, number>> = {};
  const review = sum(proof.reviewRounds);
  if (review !== undefined) times.review = review;
  if (proof.push?.durationMs !== undefined) times.push = proof.push.durationMs;
  if (proof.pullRequest?.durationMs !== undefined)
    times["pull request"] = proof.pullRequest.durationMs;
  if (proof.merge?.durationMs !== undefined) times.merge = proof.merge.durationMs;
  return times;
}

const proofOf = (e: StreamResponse): ProofShape | undefined => {
  if (e.payload?.$case !== "artifactUpdate") return undefined;
  const artifact = e.payload.value.artifact;
  if (artifact?.artifactId !== "proof-of-work") return undefined;
  const data = artifact.parts[0]?.content;
  return data?.$case === "data" ? (data.value as ProofShape) : undefined;
};

/** One new task, read to its end: its wall time, the server's CPU, and its proof of work. */
async function task(client: Client, pid: number, deliver: boolean): Promise<Sample> {
  return run(client, pid, deliver ? { deliver: true } : undefined);
}

/** One new task with `metadata` (a delivery's, or none), read to its end. */
async function run(
  client: Client,
  pid: number,
  metadata: Record<string, unknown> | undefined,
): Promise<Sample> {
  const deliver = metadata !== undefined;
  const message = { ...userMessage(TURN_PROMPT), ...(metadata && { metadata }) };
  const cpu0 = await cpuTimePreciseMs(pid);
  const start = performance.now();
  let proof: ProofShape | undefined;
  let state: unknown;
  let said = "";
  for await (const e of client.sendMessageStream(sendRequest(message))) {
    proof = proofOf(e) ?? proof;
    if (e.payload?.$case === "statusUpdate") {
      state = e.payload.value.status?.state;
      const part = e.payload.value.status?.message?.parts[0]?.content;
      if (part?.$case === "text") said = part.value;
    }
  }
  const wallMs = performance.now() - start;
  const cpuMs = (await cpuTimePreciseMs(pid)) - cpu0;
  if (deliver && proof === undefined) {
    throw new Error(
      `a delivered task ended (state ${String(state)}) without a proof of work: ${said}`,
    );
  }
  return {
    wallMs,
    cpuMs,
    checksMs: sum(proof?.checks) ?? 0,
    steps: proof === undefined ? {} : stepTimes(proof),
  };
}

/** The workspace: a git repository with one commit on main. */
async function repository(cwd: string): Promise<void> {
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...args], { cwd });
  git("init", "-q", "-b", "main");
  await writeFile(join(cwd, "README.md"), "bench\n");
  git("add", ".");
  git("commit", "-q", "-m", "base");
}

const PUSH_TOKEN = "bench-push-token";
const FORGE_TOKEN = "bench-forge-token";

export async function delivery(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  // The whole way: a review, then a pull request through a loopback git remote and forge.
  const root = await mkdtemp(join(tmpdir(), "bench-delivery-remote-"));
  const remote = await startGitHttpServer({ root, token: PUSH_TOKEN });
  remote.createRepo("app");
  const forge = await startForgeFake({ token: FORGE_TOKEN });
  const full = await rig.extraServer(
    {
      claude: {
        isolation: "worktree",
        delivery: {
          checks: [{ name: "noop", command: "true" }],
          maxRounds: 0,
          review: true,
          allowedTargets: ["branch", "pull-request"],
          remote: { url: remote.urlOf("app"), tokenEnv: "BENCH_PUSH_TOKEN" },
          forge: {
            kind: "github",
            baseUrl: forge.githubUrl,
            repository: "bench/app",
            tokenEnv: "BENCH_FORGE_TOKEN",
          },
        },
      },
    },
    repository,
    undefined,
    { env: { BENCH_PUSH_TOKEN: PUSH_TOKEN, BENCH_FORGE_TOKEN: FORGE_TOKEN } },
  );
  const s = await rig.extraServer(
    {
      claude: {
        isolation: "worktree",
        delivery: { checks: [{ name: "noop", command: "true" }], maxRounds: 0 },
      },
    },
    repository,
  );
  const plain: Sample[] = [];
  const delivered: Sample[] = [];
  const whole: Sample[] = [];
  const wholeWay = { deliver: { target: "pull-request", review: true } };
  try {
    const client = await a2aClient(s.server.url, { fetchImpl: withControl });
    const fullClient = await a2aClient(full.server.url, { fetchImpl: withControl });
    const pid = s.server.pid;
    // Warm-up: the first task of each kind (modules, the first worktree, the first check).
    await task(client, pid, false);
    await task(client, pid, true);
    await run(fullClient, full.server.pid, wholeWay);
    for (let round = 0; round < plan.deliveryRounds; round++) {
      const order = round % 2 === 0 ? [false, true] : [true, false];
      for (const deliver of order)
        (deliver ? delivered : plain).push(await task(client, pid, deliver));
      whole.push(await run(fullClient, full.server.pid, wholeWay));
    }
    log(
      `bench: delivery: ${plan.deliveryRounds} rounds of (plain task, delivered task, ` +
        "delivered with a review and a pull request)",
    );
    const found = STEPS.filter((step) => whole.some((d) => d.steps[step] !== undefined));
    const missing = STEPS.filter((step) => !found.includes(step));
    if (missing.length > 0) log(`bench: delivery: not measured: ${missing.join(", ")}`);
  } finally {
    await s.close();
    await full.close();
    await forge.close();
    await remote.close();
    await rm(root, { recursive: true, force: true });
  }
  const scenario = "delivery";
  // Paired by round: the delivered task's time, less its checks' and the plain task's.
  const added = (pick: (x: Sample) => number, less: (d: Sample) => number) =>
    delivered.map((d, i) => pick(d) - less(d) - pick(plain[i] ?? d));
  const rows: Row[] = [
    {
      scenario,
      group: "a new task, wall",
      variant: "plain",
      unit: "ms",
      samples: plain.map((x) => x.wallMs),
      baseline: true,
    },
    {
      scenario,
      group: "a new task, wall",
      variant: "delivered (one check)",
      unit: "ms",
      samples: delivered.map((x) => x.wallMs),
    },
    {
      scenario,
      group: "a new task, server CPU",
      variant: "plain",
      unit: "ms",
      samples: plain.map((x) => x.cpuMs),
      baseline: true,
    },
    {
      scenario,
      group: "a new task, server CPU",
      variant: "delivered (one check)",
      unit: "ms",
      samples: delivered.map((x) => x.cpuMs),
    },
    {
      scenario,
      group: "what a delivery adds",
      variant: "the check's own run (proof of work's durationMs)",
      unit: "ms",
      samples: delivered.map((x) => x.checksMs),
    },
    {
      scenario,
      group: "what a delivery adds",
      variant: "wall, beyond the check's run",
      unit: "ms",
      samples: added(
        (x) => x.wallMs,
        (d) => d.checksMs,
      ),
    },
    {
      scenario,
      group: "what a delivery adds",
      variant: "server CPU",
      unit: "ms",
      samples: added(
        (x) => x.cpuMs,
        () => 0,
      ),
    },
  ];
  rows.push(
    {
      scenario,
      group: "a new task, wall",
      variant: "delivered (one check, a review, a pull request)",
      unit: "ms",
      samples: whole.map((x) => x.wallMs),
    },
    {
      scenario,
      group: "a new task, server CPU",
      variant: "delivered (one check, a review, a pull request)",
      unit: "ms",
      samples: whole.map((x) => x.cpuMs),
    },
  );
  for (const step of STEPS) {
    const samples = whole.flatMap((d) => (d.steps[step] === undefined ? [] : [d.steps[step]]));
    if (samples.length > 0) {
      rows.push({
        scenario,
        group: "what a delivery adds",
        variant: STEP_LABEL[step],
        unit: "ms",
        samples,
      });
    }
  }
  return rows;
}
