import type { Artifact } from "@a2a-js/sdk";
import type { CheckRun, DeliveryTarget, ProofOfWork } from "../contract/delivery.js";
import { PROOF_OF_WORK_ID } from "../contract/delivery.js";
import { KIND } from "../contract/kinds.js";
import { artifact, dataPart, textPart } from "../contract/messages.js";
import type { WorktreeMetadata } from "../contract/worktree.js";
import { findingLine } from "./review/render.js";

/** Where the task's work is: its commit, or (nothing changed) the commit it began and ended at. */
export type ProofCommit = Pick<WorktreeMetadata, "branch" | "baseCommit" | "commit" | "files">;

/** The proof of work of a delivered task: its commit and every check of every round. Pure. */
export function proofOfWork(
  target: DeliveryTarget,
  commit: ProofCommit,
  checks: readonly CheckRun[],
): ProofOfWork {
  return {
    target,
    branch: commit.branch,
    baseCommit: commit.baseCommit,
    headCommit: commit.commit,
    files: commit.files.map(({ path, change }) => ({ path, change })),
    checks: checks.map((c) => ({ ...c })),
    rounds: checks.reduce((n, c) => Math.max(n, c.round), 0),
    review: [],
  };
}

/** The Markdown rendering of a proof of work, as the terminal client and the console show it. Pure. */
export function renderProof(proof: ProofOfWork): string {
  const lines = [
    "# Proof of work",
    "",
    `- Target: ${proof.target}`,
    `- Branch: \`${proof.branch}\``,
    `- Base: \`${proof.baseCommit}\``,
    `- Head: \`${proof.headCommit}\``,
    `- Rounds: ${proof.rounds}`,
    "",
    "## Files changed",
    "",
    ...(proof.files.length === 0
      ? ["None."]
      : proof.files.map((f) => `- \`${f.path}\` (${f.change})`)),
    "",
    "## Checks",
  ];
  if (proof.checks.length === 0) lines.push("", "None configured.");
  for (const c of proof.checks) {
    lines.push(
      "",
      `### Round ${c.round}: ${c.check}, ${c.result}`,
      "",
      `- Command: \`${c.command}\``,
      `- Exit code: ${c.exitCode === null ? "none (stopped)" : String(c.exitCode)}`,
      `- Duration: ${c.durationMs} ms`,
    );
    if (c.outputTail !== "") lines.push("", "```", c.outputTail, "```");
  }
  lines.push("", "## Review", "", ...reviewLines(proof));
  return lines.join("\n") + "\n";
}

/** The proof's review section: each review's time, then each finding and how it ended. */
function reviewLines(proof: ProofOfWork): string[] {
  const rounds = proof.reviewRounds;
  if (rounds === undefined) return ["None asked."];
  const lines = rounds.map(
    (r) => `- Round ${r.round}: ${r.findings} finding(s) (${r.durationMs} ms)`,
  );
  if (proof.review.length > 0) lines.push("", ...proof.review.map(findingLine));
  return lines;
}

/** The `proof-of-work` artifact: the JSON (a data part) and its Markdown (a text part). Pure. */
export function proofArtifact(proof: ProofOfWork): Artifact {
  const markdown = { ...textPart(renderProof(proof)), mediaType: "text/markdown" };
  return artifact(PROOF_OF_WORK_ID, PROOF_OF_WORK_ID, [dataPart(proof), markdown], {
    kind: KIND.proofOfWork,
  });
}
