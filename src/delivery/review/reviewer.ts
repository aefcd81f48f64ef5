import type { ClaudeSession, RunStream, RunUsage } from "../../claude/index.js";
import type { ReviewFinding, ReviewRound, Severity } from "../../contract/review.js";
import { reviewDiff } from "./diff.js";
import { parseReview } from "./findings.js";
import { reviewerPrompt, reviewerRetryPrompt } from "./prompt.js";
import { reviewRubric } from "./rubric.js";

/**
 * A reviewer's session, made for one review: new, in `cwd`, read-only (review-options.ts), once
 * a process slot is free (`sessions.maxLive` counts it); `signal` gives up the wait.
 */
export type ReviewerSessions = (
  cwd: string,
  owner: string | undefined,
  signal: AbortSignal,
) => Promise<ClaudeSession>;

/** What the server gives a task to review its delivery with (`DeliveryRunner.reviewer`). */
export interface Reviewer {
  /** `claude.delivery.reviewBlocking`: findings at or above it go back to Claude. */
  readonly blocking: Severity;
  /** Runs one review to its end (stopped on `req.signal`); never throws: a failure is an answer. */
  review(req: ReviewRequest): Promise<ReviewAnswer>;
}

/** The server's reviewer: each review in a new session from `sessions`, with the config's rubric. */
export const reviewer = (
  sessions: ReviewerSessions,
  blocking: Severity,
  rubric: string,
): Reviewer => ({
  blocking,
  review: (req) =>
    runReview(sessions, rubric, req).catch((err: unknown) => ({
      kind: "failed" as const,
      why: err instanceof Error ? err.message : String(err),
      durationMs: 0,
    })),
});

/** What a review is asked to look at. */
export interface ReviewRequest {
  /** The conversation's worktree. */
  readonly cwd: string;
  /** The branch's base: the commit the task began at. */
  readonly baseCommit: string;
  readonly round: number;
  /** The task's caller (the sandbox's view of inbox folders); undefined when unknown. */
  readonly owner: string | undefined;
  readonly signal: AbortSignal;
  /** Called with each turn's cost as the reviewer's session reports it. */
  readonly addUsage: (usage: RunUsage) => void;
}

/** How a review ended: its findings, or why there are none to read. */
export type ReviewAnswer =
  | { readonly kind: "answered"; readonly review: ReviewRound }
  | { readonly kind: "failed"; readonly why: string; readonly durationMs: number };

/**
 * One review (docs/delivery.md "Review"): a new Claude Code session in the worktree, given the
 * rubric and the diff since the branch's base, answers with findings; an unreadable answer is
 * asked once more. The session is closed at the end, and when `signal` aborts.
 */
export async function runReview(
  sessions: ReviewerSessions,
  rubricText: string,
  req: ReviewRequest,
): Promise<ReviewAnswer> {
  const started = Date.now();
  const took = () => Date.now() - started;
  const { diff, files } = await reviewDiff(req.cwd, req.baseCommit, req.signal);
  const rubric = await reviewRubric(req.cwd, rubricText);
  if (req.signal.aborted) return { kind: "failed", why: "the task ended", durationMs: took() };
  const session = await sessions(req.cwd, req.owner, req.signal);
  const stop = () => void session.close("the task ended");
  req.signal.addEventListener("abort", stop, { once: true });
  try {
    const prompt = reviewerPrompt({ rubric: rubric.text, baseCommit: req.baseCommit, diff, files });
    let parsed = await readTurn(session.stream(prompt), req.addUsage);
    if (parsed.ok === "unreadable") {
      parsed = await readTurn(session.stream(reviewerRetryPrompt(parsed.why)), req.addUsage);
    }
    if (parsed.ok !== true) return { kind: "failed", why: parsed.why, durationMs: took() };
    const review = {
      round: req.round,
      durationMs: took(),
      findings: parsed.findings,
      rubric: rubric.source,
    };
    return { kind: "answered", review };
  } finally {
    req.signal.removeEventListener("abort", stop);
    await session.close("the review ended");
  }
}

type TurnAnswer =
  | { readonly ok: true; readonly findings: readonly ReviewFinding[] }
  /** The turn ended, but its answer held no readable findings. */
  | { readonly ok: "unreadable"; readonly why: string }
  /** The turn itself failed (the model's API, the process). */
  | { readonly ok: false; readonly why: string };

/** Reads one turn of the reviewer to its end: its text (every block of it), parsed. */
async function readTurn(stream: RunStream, addUsage: (u: RunUsage) => void): Promise<TurnAnswer> {
  const texts: string[] = [];
  for await (const event of stream) {
    switch (event.kind) {
      case "result":
        addUsage(event.usage);
        break;
      case "assistant":
        // The main loop's text only: a subagent's is not the reviewer's answer.
        if (event.parentToolUseId === null) {
          for (const b of event.content) if (b.type === "text") texts.push(b.text);
        }
        break;
      case "run_completed": {
        const parsed = parseReview(texts.join("\n\n") || event.text);
        return parsed.ok
          ? { ok: true, findings: parsed.findings }
          : { ok: "unreadable", why: `the reviewer's answer has ${parsed.why}` };
      }
      case "run_failed":
      case "run_interrupted":
        return { ok: false, why: `the reviewer's session ended (${event.reason})` };
      default:
        break;
    }
  }
  return { ok: false, why: "the reviewer's session ended without an answer" };
}
