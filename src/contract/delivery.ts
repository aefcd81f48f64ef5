import type { WorktreeFileChange } from "./worktree.js";
import type { ProvenFinding, ReviewFinding, ReviewRound, Severity } from "./review.js";

/**
 * A delivery (docs/delivery.md): what a new task's message asks with `metadata.deliver` (the
 * control extension), what each round of checks shows on the stream (`delivery`), and the
 * `proof-of-work` artifact of a delivered task. Both clients read these shapes.
 */

/** The message metadata key that asks for a delivery (with the control extension active). */
export const DELIVER_KEY = "deliver";

/** Where a delivery ends: only `branch` is built this round (the others are refused). */
export const DELIVERY_TARGETS = ["branch", "push", "pull-request", "merge"] as const;
export type DeliveryTarget = (typeof DELIVERY_TARGETS)[number];

/** The final status's metadata key holding what the task's delivery was (its plan and rounds). */
export const DELIVERY_KEY = "delivery";

/** How one check ended: its exit code 0, another code (or a signal), or killed past its limit. */
export type CheckResult = "passed" | "failed" | "timed_out";

/** One run of one check, as the `delivery` status and the proof of work carry it. */
export interface CheckRun {
  /** The round it ran in: 1 after the task's own turn, one more after each fix turn. */
  readonly round: number;
  readonly check: string;
  readonly command: string;
  readonly result: CheckResult;
  /** Its exit code; null when a signal ended it (a timeout's kill included). */
  readonly exitCode: number | null;
  readonly durationMs: number;
  /** The last lines of what it printed (stdout and stderr, as they came). */
  readonly outputTail: string;
}

/** The `proof-of-work` artifact's data part (docs/delivery.md "Proof of work"). */
export interface ProofOfWork {
  readonly target: DeliveryTarget;
  /** The conversation's branch, and the commits before and after the task. */
  readonly branch: string;
  readonly baseCommit: string;
  readonly headCommit: string;
  readonly files: readonly WorktreeFileChange[];
  /** Every check of every round, in the order they ran. */
  readonly checks: readonly CheckRun[];
  readonly rounds: number;
  /** Every finding of the review (empty without one), each with how it ended. */
  readonly review: readonly ProvenFinding[];
  /** Each review: its round, how long it took, how many findings (absent without a review). */
  readonly reviewRounds?: readonly ProofReviewRound[];
}

/** A review in the proof of work: what the bench reads of it. */
export interface ProofReviewRound {
  readonly round: number;
  readonly durationMs: number;
  readonly findings: number;
}

/** The artifact's id and name: one per delivered task. */
export const PROOF_OF_WORK_ID = "proof-of-work";

/** The texts of a delivery: the `delivery` status, the fix turn's prompt, the refusals. */
export const DELIVERY_TEXT = {
  checkRan: (run: Pick<CheckRun, "round" | "check" | "result" | "exitCode" | "durationMs">) =>
    `Delivery round ${run.round}: check ${run.check} ${resultWords(run)} (${seconds(run.durationMs)}).`,
  stillRed: (rounds: number, run: CheckRun) =>
    `Delivery failed: the checks are still red after ${rounds} round(s). ` +
    `Check ${run.check} (${run.command}) ${resultWords(run)}; the last lines of its output:\n` +
    run.outputTail,
  fixPrompt: (runs: readonly CheckRun[], round: number, maxRounds: number) =>
    `The server ran this task's delivery checks (round ${round}; ${maxRounds} fix round(s) ` +
    `allowed) and ${runs.length === 1 ? "one failed" : `${runs.length} failed`}:\n\n` +
    runs
      .map(
        (r) =>
          `Check ${r.check}: \`${r.command}\` ${resultWords(r)}.\nThe last lines of its output:\n` +
          "```\n" +
          r.outputTail +
          "\n```",
      )
      .join("\n\n") +
    "\n\nFix the cause in this working directory. When you finish, the server runs the checks " +
    "again.",
  reviewed: (review: Pick<ReviewRound, "round" | "findings" | "durationMs">, blocking: number) =>
    `Delivery round ${review.round}: review ${review.findings.length === 0 ? "found nothing" : `found ${review.findings.length} finding(s), ${blocking} blocking`} (${seconds(review.durationMs)}).`,
  reviewFixPrompt: (
    findings: readonly ReviewFinding[],
    threshold: Severity,
    round: number,
    maxRounds: number,
  ) =>
    `A reviewer in a separate context read this task's changes (round ${round}; ${maxRounds} fix ` +
    `round(s) allowed) and found ${findings.length} finding(s) at or above ${threshold}:\n\n` +
    findings.map((f) => `- ${f.severity}: ${where(f)}: ${f.message}`).join("\n") +
    "\n\nFix them in this working directory. When you finish, the server runs the checks and " +
    "the review again.",
  reviewBlocked: (rounds: number, findings: readonly ReviewFinding[]) =>
    `Delivery failed: the review still has ${findings.length} blocking finding(s) after ` +
    `${rounds} round(s):\n` +
    findings.map((f) => `- ${f.severity}: ${where(f)}: ${f.message}`).join("\n"),
  reviewError: (why: string) => `Delivery failed: its review could not run (${why}).`,
  roundError: (why: string) => `Delivery failed: its checks could not run (${why}).`,
  stepError: (why: string) => `Delivery failed: ${why}.`,
  needsExtension: (uri: string) =>
    `metadata.deliver needs the control extension: activate ${uri} with the A2A-Extensions header.`,
  notConfigured:
    "This workspace has no claude.delivery: a task cannot ask for a delivery here (docs/delivery.md).",
  needsWorktree:
    'A delivery needs claude.isolation "worktree": this workspace works in one shared directory.',
  badShape:
    "metadata.deliver must be true, a target name, or an object " +
    "{ target, checks (names), review, maxRounds }.",
  unknownKey: (key: string) =>
    `metadata.deliver has no key ${JSON.stringify(key)}: check commands come from ` +
    "claude.delivery.checks only; name checks by their name.",
  unknownTarget: (target: unknown) =>
    `Unknown delivery target ${JSON.stringify(target)}: expected one of ${DELIVERY_TARGETS.join(", ")}.`,
  targetNotAllowed: (target: string, allowed: readonly string[]) =>
    `Delivery target ${target} is not allowed in this workspace (claude.delivery.allowedTargets: ` +
    `${allowed.join(", ")}).`,
  badChecks:
    "metadata.deliver.checks must be an array of check names from claude.delivery.checks; a " +
    "caller never supplies a command.",
  unknownCheck: (name: string, known: readonly string[]) =>
    `Unknown check ${JSON.stringify(name)}: this workspace has ${known.length > 0 ? known.join(", ") : "none"}.`,
  badMaxRounds: (max: number) =>
    `metadata.deliver.maxRounds must be an integer from 0 to ${max} (claude.delivery.maxRounds).`,
  badReview: "metadata.deliver.review must be true or false.",
} as const;

function resultWords(run: Pick<CheckRun, "result" | "exitCode">): string {
  switch (run.result) {
    case "passed":
      return "passed";
    case "failed":
      return run.exitCode === null
        ? "failed (ended by a signal)"
        : `failed with exit code ${run.exitCode}`;
    case "timed_out":
      return "timed out and was stopped";
  }
}

const where = (f: ReviewFinding): string =>
  f.file === "" ? "(no file)" : f.line > 0 ? `${f.file}:${f.line}` : f.file;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
