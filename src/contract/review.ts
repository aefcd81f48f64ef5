/**
 * A delivery's review (docs/delivery.md "Review"): a read-only Claude Code session in a context of
 * its own reads the task's diff and answers with findings. The `review` artifact, the `delivery`
 * status of each review (`metadata.step: "review"`) and the proof of work's `review` field carry
 * these shapes; both clients read them.
 */

/** How bad a finding is, worst first. */
export const SEVERITIES = ["blocker", "major", "minor", "nit"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** One finding, as the reviewer gave it. */
export interface ReviewFinding {
  readonly severity: Severity;
  /** The file it is about, relative to the repository's root ("" when about no one file). */
  readonly file: string;
  /** Its line in the file (0: no line). */
  readonly line: number;
  readonly message: string;
}

/**
 * How a finding ended: `fixed` (at or above the blocking severity, and gone from a later review),
 * `open` (blocking, and still in the last review), `below-threshold` (never sent back to Claude).
 */
export type FindingOutcome = "fixed" | "open" | "below-threshold";

/** A finding in the proof of work: the first review (round) it was in, and how it ended. */
export interface ProvenFinding extends ReviewFinding {
  readonly round: number;
  readonly outcome: FindingOutcome;
}

/** Findings counted by severity (every severity present, 0 included). */
export type SeverityCounts = Readonly<Record<Severity, number>>;

/** One review: after the checks of round `round` went green. */
export interface ReviewRound {
  readonly round: number;
  /** The reviewer's wall time, its session's start to its answer. */
  readonly durationMs: number;
  readonly findings: readonly ReviewFinding[];
  /** Where its rubric came from: the repository's REVIEW.md, or `claude.delivery.reviewRubric`. */
  readonly rubric: "REVIEW.md" | "config";
}

/** The `review` artifact's data part: every review of the task so far. */
export interface ReviewArtifactData {
  /** Findings at or above this severity went back to Claude (`claude.delivery.reviewBlocking`). */
  readonly blocking: Severity;
  readonly reviews: readonly ReviewRound[];
}

/** The artifact's id and name: one per task whose delivery reviews (replaced at each review). */
export const REVIEW_ARTIFACT_ID = "review";

/** The fence the reviewer's answer puts its findings in: ```` ```review-findings ```` … ```` ``` ````. */
export const FINDINGS_FENCE = "review-findings";

/** The default of `claude.delivery.reviewRubric`: the rubric when the repository has no REVIEW.md. */
export const DEFAULT_REVIEW_RUBRIC =
  "Review the change for correctness first: bugs, wrong or missing error handling, broken edge " +
  "cases, security problems (secrets, injection, unsafe input), and tests that do not test what " +
  "they claim. Then for clarity and consistency with the code around it. A blocker or major " +
  "finding is one that should stop the change from merging; minor and nit findings are advice.";
