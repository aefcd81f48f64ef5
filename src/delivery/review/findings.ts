import { z } from "zod";
import { FINDINGS_FENCE, SEVERITIES, type ReviewFinding } from "../../contract/review.js";

/**
 * The reviewer's answer → its findings. It is asked for one fenced block, ```` ```review-findings
 * ```` holding `{ "findings": [{ severity, file, line, message }] }` (a bare array is taken too);
 * the last such block counts. No block, JSON that does not parse, or a finding of another shape is
 * an unreadable answer, with why: the reviewer is asked once more, and a second unreadable answer
 * fails the delivery (docs/delivery.md "Review"). Pure.
 */
export type ParsedReview =
  | { readonly ok: true; readonly findings: readonly ReviewFinding[] }
  | { readonly ok: false; readonly why: string };

const finding = z.strictObject({
  severity: z.enum(SEVERITIES),
  file: z.string().max(1000).default(""),
  line: z.number().int().min(0).default(0),
  message: z.string().trim().min(1).max(4000),
});

const list = z.array(finding).max(200);
const wrapped = z.strictObject({ findings: list });

/** The body of each ```` ```review-findings ```` block, in order. */
function fencedBlocks(text: string): string[] {
  const fence = new RegExp(
    "^```" + FINDINGS_FENCE + "[ \\t]*\\r?\\n([\\s\\S]*?)^```[ \\t]*$",
    "gm",
  );
  return [...text.matchAll(fence)].map((m) => m[1] ?? "");
}

export function parseReview(text: string): ParsedReview {
  const body = fencedBlocks(text).at(-1);
  if (body === undefined) return { ok: false, why: `no \`\`\`${FINDINGS_FENCE} block` };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (err) {
    return { ok: false, why: `its block is not JSON (${(err as Error).message})` };
  }
  // A bare array is the list itself; anything else must be { findings: [...] }.
  const parsed = Array.isArray(json)
    ? list.safeParse(json)
    : wrapped.transform((w) => w.findings).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join(".") || "the block";
    return { ok: false, why: `its block is not a findings list (${path}: ${issue?.message})` };
  }
  return { ok: true, findings: parsed.data.map((f) => ({ ...f, file: f.file.trim() })) };
}
