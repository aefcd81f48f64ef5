import { FINDINGS_FENCE, SEVERITIES } from "../../contract/review.js";

/** The most diff the reviewer's prompt carries; past it, the list of files and a note (it can Read). */
export const MAX_PROMPT_DIFF_CHARS = 100_000;

/** The first line of every reviewer prompt (a scripted model's rule recognises it). */
export const REVIEWER_OPENING =
  "You are the reviewer of a change made by another Claude Code session.";

/**
 * The reviewer's one prompt: the rubric, the diff since the branch's base, and the one answer it
 * must end with. Pure.
 */
export function reviewerPrompt(o: {
  readonly rubric: string;
  readonly baseCommit: string;
  readonly diff: string;
  readonly files: readonly string[];
}): string {
  const diff =
    o.diff.length <= MAX_PROMPT_DIFF_CHARS
      ? o.diff
      : `${o.diff.slice(0, MAX_PROMPT_DIFF_CHARS)}\n[… the diff goes on: read the files listed above]`;
  return [
    REVIEWER_OPENING,
    "",
    "You work read-only in its working directory: you cannot write, edit or run anything that " +
      "changes it. Read the files you need for context.",
    "",
    "## Rubric",
    "",
    o.rubric.trim(),
    "",
    `## The change since ${o.baseCommit.slice(0, 12)}`,
    "",
    o.files.length === 0 ? "No file changed." : o.files.map((f) => `- ${f}`).join("\n"),
    "",
    "```diff",
    diff,
    "```",
    "",
    "## Your answer",
    "",
    `End your answer with exactly one fenced block \`\`\`${FINDINGS_FENCE} holding JSON: ` +
      '{ "findings": [{ "severity": …, "file": …, "line": …, "message": … }] }, where severity ' +
      `is one of ${SEVERITIES.join(", ")}, file is relative to the working directory and line ` +
      'is a line of the new file (0 when none). No finding: { "findings": [] }.',
  ].join("\n");
}

/** Asked once more when the reviewer's answer could not be read. Pure. */
export const reviewerRetryPrompt = (why: string): string =>
  `Your answer could not be read (${why}). Answer again with only the \`\`\`${FINDINGS_FENCE} ` +
  'block: { "findings": [...] }.';
