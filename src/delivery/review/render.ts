import type { Artifact } from "@a2a-js/sdk";
import { KIND } from "../../contract/kinds.js";
import { artifact, dataPart, textPart } from "../../contract/messages.js";
import {
  REVIEW_ARTIFACT_ID,
  type ProvenFinding,
  type ReviewArtifactData,
  type ReviewFinding,
} from "../../contract/review.js";
import { atOrAbove } from "./verdict.js";

const where = (f: ReviewFinding): string =>
  f.file === "" ? "(no file)" : f.line > 0 ? `\`${f.file}:${f.line}\`` : `\`${f.file}\``;

/** One finding as a Markdown list item. Pure. */
export const findingLine = (f: ReviewFinding | ProvenFinding): string =>
  `- **${f.severity}** ${where(f)}: ${f.message.replace(/\s*\n\s*/g, " ")}` +
  ("outcome" in f ? ` (round ${f.round}, ${f.outcome})` : "");

/** The Markdown of the `review` artifact: each review, its findings worst first. Pure. */
export function renderReview(data: ReviewArtifactData): string {
  const lines = ["# Review", "", `Findings at or above ${data.blocking} go back to Claude.`];
  for (const r of data.reviews) {
    const blocking = r.findings.filter((f) => atOrAbove(f.severity, data.blocking)).length;
    lines.push(
      "",
      `## Round ${r.round}: ${r.findings.length} finding(s), ${blocking} blocking`,
      "",
      `- Rubric: ${r.rubric === "REVIEW.md" ? "the repository's REVIEW.md" : "claude.delivery.reviewRubric"}`,
      `- Duration: ${r.durationMs} ms`,
    );
    if (r.findings.length > 0) lines.push("", ...r.findings.map(findingLine));
  }
  return lines.join("\n") + "\n";
}

/** The `review` artifact: the JSON (a data part) and its Markdown (a text part). Pure. */
export function reviewArtifact(data: ReviewArtifactData): Artifact {
  const markdown = { ...textPart(renderReview(data)), mediaType: "text/markdown" };
  return artifact(REVIEW_ARTIFACT_ID, REVIEW_ARTIFACT_ID, [dataPart(data), markdown], {
    kind: KIND.review,
  });
}
