import {
  SEVERITIES,
  type ProvenFinding,
  type ReviewFinding,
  type ReviewRound,
  type Severity,
  type SeverityCounts,
} from "../../contract/review.js";

/** True when `severity` is `threshold` or worse. Pure. */
export const atOrAbove = (severity: Severity, threshold: Severity): boolean =>
  SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(threshold);

/** What follows a review. */
export type ReviewFate =
  /** Nothing at or above the threshold: the delivery goes on (commit, target step). */
  | { readonly kind: "clean" }
  /** Blocking findings and a fix round left: they go back to Claude as a new turn of the task. */
  | { readonly kind: "fix"; readonly blocking: readonly ReviewFinding[] }
  /** Blocking findings and no fix round left: the task fails with them. */
  | { readonly kind: "blocked"; readonly blocking: readonly ReviewFinding[] };

/**
 * After the review of round `round` (the checks of that round were green), with `maxRounds` fix
 * rounds allowed: a review's fix round counts as a round, as a red check's does. Pure.
 */
export function reviewFate(
  findings: readonly ReviewFinding[],
  threshold: Severity,
  round: number,
  maxRounds: number,
): ReviewFate {
  const blocking = findings.filter((f) => atOrAbove(f.severity, threshold));
  if (blocking.length === 0) return { kind: "clean" };
  return round <= maxRounds ? { kind: "fix", blocking } : { kind: "blocked", blocking };
}

/** Findings counted by severity. Pure. */
export function countBySeverity(findings: readonly ReviewFinding[]): SeverityCounts {
  const counts = { blocker: 0, major: 0, minor: 0, nit: 0 };
  for (const f of findings) counts[f.severity] += 1;
  return counts;
}

/** Two reviews name the same finding when they say it of the same file in the same words. */
const identity = (f: ReviewFinding): string =>
  `${f.file}\0${f.message.trim().replace(/\s+/g, " ").toLowerCase()}`;

/**
 * Each finding of the reviews once (at the first review that had it), with how it ended: below
 * the threshold, never sent back; else `open` while the last review still has it, `fixed` once a
 * later review does not. Pure.
 */
export function provenFindings(
  reviews: readonly ReviewRound[],
  threshold: Severity,
): ProvenFinding[] {
  const last = new Set((reviews.at(-1)?.findings ?? []).map(identity));
  const seen = new Set<string>();
  const out: ProvenFinding[] = [];
  for (const review of reviews) {
    for (const f of review.findings) {
      const id = identity(f);
      if (seen.has(id)) continue;
      seen.add(id);
      const outcome = !atOrAbove(f.severity, threshold)
        ? "below-threshold"
        : last.has(id)
          ? "open"
          : "fixed";
      out.push({ ...f, round: review.round, outcome });
    }
  }
  return out;
}
