import { readTextInside } from "../../common/safe-files.js";

/** The repository's own rubric, at the worktree's root. */
export const REVIEW_FILE = "REVIEW.md";

/** The most of a REVIEW.md the prompt carries. */
const MAX_RUBRIC_CHARS = 20_000;

/**
 * The rubric of a review in `cwd`: its REVIEW.md (read without following a link out of the
 * worktree) when there is one, else the config's text.
 */
export async function reviewRubric(
  cwd: string,
  configured: string,
): Promise<{ readonly text: string; readonly source: "REVIEW.md" | "config" }> {
  const own = await readTextInside(cwd, REVIEW_FILE).catch(() => undefined);
  if (own !== undefined && own.trim() !== "") {
    return { text: own.slice(0, MAX_RUBRIC_CHARS), source: "REVIEW.md" };
  }
  return { text: configured, source: "config" };
}
