/**
 * A delivery's progress as the console shows it (docs/delivery.md "The stream"): each `delivery`
 * status is a check of a round or a stage of the target step (`metadata.step`: review, push,
 * pull request, merge…). Consecutive checks of one round make one timeline entry, and so do
 * consecutive stages of one step, so the timeline reads round 1, the fix turn, round 2, the push.
 * Pure: no DOM.
 */

// The shapes of src/contract/delivery.ts, restated: that module's imports need Node, which the
// page's build has not (test/unit/console/delivery-model.test.ts checks the two agree).

/** How one check ended. */
export type CheckResult = "passed" | "failed" | "timed_out";

/** One run of one check, as the `delivery` status and the proof of work carry it. */
export interface CheckRun {
  readonly round: number;
  readonly check: string;
  readonly command: string;
  readonly result: CheckResult;
  readonly exitCode: number | null;
  readonly durationMs: number;
  readonly outputTail: string;
}

/** One `delivery` status: a check's run, or a stage of the step after the checks. */
export type DeliveryStage =
  | { readonly kind: "check"; readonly run: CheckRun; readonly text: string }
  | {
      readonly kind: "step";
      readonly step: string;
      readonly text: string;
      /** Its other metadata fields (what the stage did), shown as they come. */
      readonly fields: Readonly<Record<string, unknown>>;
    };

/** What a group of stages is: the checks of a round, or the stages of one step. */
export type DeliveryGroup =
  | { readonly kind: "round"; readonly round: number }
  | { readonly kind: "step"; readonly step: string };

/** A timeline entry of consecutive stages of one group. */
export interface DeliveryEntry {
  readonly type: "delivery";
  readonly group: DeliveryGroup;
  readonly stages: DeliveryStage[];
}

const RESULTS: readonly CheckResult[] = ["passed", "failed", "timed_out"];

/** The check run a status's metadata carries, or undefined when it is not one whole. */
export function checkRunOf(meta: Readonly<Record<string, unknown>>): CheckRun | undefined {
  const { round, check, command, result, exitCode, durationMs, outputTail } = meta;
  if (
    typeof round !== "number" ||
    typeof check !== "string" ||
    typeof command !== "string" ||
    !RESULTS.includes(result as CheckResult) ||
    !(exitCode === null || typeof exitCode === "number") ||
    typeof durationMs !== "number"
  )
    return undefined;
  return {
    round,
    check,
    command,
    result: result as CheckResult,
    exitCode,
    durationMs,
    outputTail: typeof outputTail === "string" ? outputTail : "",
  };
}

/** Metadata keys that are the status's own, not what a step stage did. */
const OWN_KEYS = new Set(["kind", "step"]);

/** The stage a `delivery` status stands for; undefined for a shape the page does not know. */
export function stageOf(
  meta: Readonly<Record<string, unknown>>,
  text: string,
): DeliveryStage | undefined {
  if (typeof meta.step === "string" && meta.step !== "") {
    const fields = Object.fromEntries(Object.entries(meta).filter(([k]) => !OWN_KEYS.has(k)));
    return { kind: "step", step: meta.step, text, fields };
  }
  const run = checkRunOf(meta);
  return run === undefined ? undefined : { kind: "check", run, text };
}

const groupOf = (stage: DeliveryStage): DeliveryGroup =>
  stage.kind === "check"
    ? { kind: "round", round: stage.run.round }
    : { kind: "step", step: stage.step };

const sameGroup = (a: DeliveryGroup, b: DeliveryGroup): boolean =>
  a.kind === "round"
    ? b.kind === "round" && a.round === b.round
    : b.kind === "step" && a.step === b.step;

/**
 * Adds `stage` to the last entry when it is of the same group (the next check of a round, the
 * next stage of a step), else as a new entry.
 */
export function addStage(
  entries: (DeliveryEntry | { readonly type: string })[],
  stage: DeliveryStage,
): void {
  const group = groupOf(stage);
  const last = entries.at(-1);
  if (last !== undefined && isDelivery(last) && sameGroup(last.group, group))
    last.stages.push(stage);
  else {
    const entry: DeliveryEntry = { type: "delivery", group, stages: [stage] };
    entries.push(entry);
  }
}

const isDelivery = (e: DeliveryEntry | { readonly type: string }): e is DeliveryEntry =>
  e.type === "delivery";

/** Check runs grouped by round, in the order they ran (the proof of work's `checks`). */
export function byRound(runs: readonly CheckRun[]): { round: number; runs: CheckRun[] }[] {
  const rounds: { round: number; runs: CheckRun[] }[] = [];
  for (const run of runs) {
    const last = rounds.at(-1);
    if (last?.round === run.round) last.runs.push(run);
    else rounds.push({ round: run.round, runs: [run] });
  }
  return rounds;
}

/** How the checks of a round went so far: "1 passed", "1 of 2 failed". */
export function roundVerdict(runs: readonly CheckRun[]): string {
  const red = runs.filter((r) => r.result !== "passed").length;
  return red === 0 ? `${runs.length} passed` : `${red} of ${runs.length} failed`;
}

/** How one check ended, in a few words: "exit code 1", "timed out", "ended by a signal". */
export function endWords(run: Pick<CheckRun, "result" | "exitCode">): string {
  switch (run.result) {
    case "passed":
      return "exit code 0";
    case "failed":
      return run.exitCode === null ? "ended by a signal" : `exit code ${run.exitCode}`;
    case "timed_out":
      return "timed out";
  }
}

/** A key as words: `pullRequest` → "Pull request", `head_commit` → "Head commit". */
export function labelOf(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
