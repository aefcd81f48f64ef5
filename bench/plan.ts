/** How much each scenario runs: the full run, or `BENCH_QUICK=1`'s reduced one. Pure. */

export const SCENARIOS = [
  "warm",
  "long",
  "concurrency",
  "store",
  "pool",
  "workspace",
  "compare",
  "fleet",
  "sandbox",
  "resume",
  "spares",
  "client",
  "scale",
  "trigger",
  "delivery",
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface Plan {
  readonly quick: boolean;
  readonly scenarios: readonly ScenarioName[];
  /** Warm turns: rounds of (A2A blocking, A2A streaming, direct session, spawn-per-turn). */
  readonly warmRounds: number;
  readonly warmUp: number;
  /** Long answers: delta counts and rounds of (A2A, direct) per count. */
  readonly longSizes: readonly number[];
  readonly longRounds: number;
  /** Concurrency: context counts, turns per context, repetitions of (A2A, direct). */
  readonly contexts: readonly number[];
  readonly turnsPerContext: number;
  readonly concurrencyReps: number;
  /** Store: tasks seeded, client loops, seconds per measured phase, phases per operation. */
  readonly storeTasks: number;
  /** The store of a server that has run for a month (the client's tasks among them); 0: none. */
  readonly storeBulkTasks: number;
  readonly storeLoops: number;
  readonly storePhaseSeconds: number;
  readonly storePhases: number;
  /** Pool: one-shot conversations per server, round-robin rounds, turns of each loop at once. */
  readonly poolOneShots: number;
  /** Pool: the "full" server's process slots (twice as many conversations share them). */
  readonly poolSlots: number;
  readonly poolRounds: number;
  readonly poolTurnsAtOnce: number;
  /** Fleet: rounds of measured events (owner's and other instance's subscriber), and how many. */
  readonly fleetRounds: number;
  readonly fleetEvents: number;
  /** Sandbox: rounds of (sandbox off, "strict") turns running one Bash each. */
  readonly sandboxRounds: number;
  /** Sandbox: of those rounds, how many also start a new conversation on each server. */
  readonly sandboxNewRounds: number;
  /** Long answer from outside the bench's process: rounds of (plain HTTP, query()) at 5,000. */
  readonly outsideRounds: number;
  /** Workspace: repository sizes (files) and interleaved rounds per size. */
  readonly workspaceSizes: readonly number[];
  readonly workspaceRounds: number;
  /** Workspace: rounds of today's layout against the new one, in the bench process (issue 46). */
  readonly workspaceLayoutRounds: number;
  /** Spares: interleaved rounds, and the files of the "worktree" servers' repository. */
  readonly sparesRounds: number;
  readonly sparesFiles: number;
  /** Spares: new conversations sent at once in the burst. */
  readonly sparesBurst: number;
  /** Client start: interleaved rounds of (`node -e 0`, `--version`, `send`). */
  readonly clientStartRounds: number;
  /** Trigger: interleaved rounds of (SendStreamingMessage, webhook delivery), new tasks each. */
  readonly triggerRounds: number;
  /** Delivery: interleaved rounds of (plain task, delivered task), new conversations each. */
  readonly deliveryRounds: number;
}

export function planFrom(env: Record<string, string | undefined>): Plan {
  const quick = env.BENCH_QUICK === "1" || env.BENCH_QUICK === "true";
  const only = (env.BENCH_ONLY ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  for (const name of only) {
    if (!(SCENARIOS as readonly string[]).includes(name)) {
      throw new Error(`BENCH_ONLY: unknown scenario "${name}" (known: ${SCENARIOS.join(", ")})`);
    }
  }
  // `compare` needs an earlier build to compare with: in the full run only when one is named.
  const all = SCENARIOS.filter((s) => s !== "compare" || (env.BENCH_BEFORE ?? "") !== "");
  const scenarios = only.length > 0 ? (only as ScenarioName[]) : all;
  // Quick: every scenario at small sizes, so that the whole run takes minutes on a loaded
  // 2-core machine (a million-task store alone took 6 minutes to seed there).
  return {
    quick,
    scenarios,
    warmRounds: quick ? 3 : 20,
    sandboxRounds: quick ? 3 : 20,
    sandboxNewRounds: quick ? 2 : 8,
    warmUp: quick ? 1 : 2,
    longSizes: quick ? [1_000, 5_000] : [1_000, 5_000, 20_000],
    longRounds: quick ? 1 : 5,
    outsideRounds: quick ? 6 : 10,
    contexts: quick ? [1, 4] : [1, 4, 8],
    turnsPerContext: quick ? 2 : 5,
    concurrencyReps: quick ? 1 : 2,
    storeTasks: quick ? 1_000 : 10_000,
    storeBulkTasks: Number(env.BENCH_STORE_BULK ?? (quick ? 0 : 1_000_000)),
    storeLoops: quick ? 4 : 8,
    storePhaseSeconds: quick ? 1 : 5,
    storePhases: quick ? 1 : 3,
    poolOneShots: quick ? 2 : 20,
    poolSlots: quick ? 2 : 4,
    poolRounds: quick ? 1 : 3,
    poolTurnsAtOnce: quick ? 1 : 3,
    fleetRounds: quick ? 1 : 3,
    fleetEvents: quick ? 500 : 1_000,
    workspaceSizes: quick ? [1_000] : [1_000, 20_000],
    workspaceRounds: quick ? 2 : 8,
    workspaceLayoutRounds: quick ? 1 : 8,
    sparesRounds: quick ? 2 : 15,
    sparesFiles: quick ? 1_000 : 20_000,
    sparesBurst: quick ? 4 : 8,
    clientStartRounds: quick ? 5 : 30,
    triggerRounds: quick ? 5 : 20,
    deliveryRounds: quick ? 4 : 16,
  };
}
