import { TITLE_MAX } from "../../contract/delivery-push.js";
import type { ProofOfWork } from "../../contract/delivery.js";
import { renderProof } from "../proof.js";

/**
 * A pull (merge) request's title and body, from the task and its proof of work. Pure: the forges'
 * limits are applied here (GitHub refuses a body over 65,536 characters).
 */

/** The most of the proof's Markdown a body carries; the rest is cut, saying so. */
export const BODY_MAX = 60_000;

/** The first non-empty line of the task's prompt, capped; the branch when it has none. Pure. */
export function requestTitle(prompt: string, branch: string): string {
  const line =
    prompt
      .split("\n")
      .map((l) => l.replace(/\s+/g, " ").trim())
      .find((l) => l !== "") ?? "";
  if (line === "") return `Work of ${branch}`;
  return line.length <= TITLE_MAX ? line : `${line.slice(0, TITLE_MAX - 1).trimEnd()}…`;
}

/** The proof of work as Markdown, with a line saying who opened it and from what. Pure. */
export function requestBody(proof: ProofOfWork): string {
  const head =
    `Opened by claude-a2a from the conversation's branch \`${proof.branch}\` ` +
    `(${proof.headCommit.slice(0, 12)}), after its delivery checks went green.\n\n`;
  const markdown = renderProof(proof);
  const room = BODY_MAX - head.length;
  const cut =
    markdown.length <= room
      ? markdown
      : `${markdown.slice(0, room)}\n\n… (cut: the whole proof of work is the task's artifact)\n`;
  return head + cut;
}
