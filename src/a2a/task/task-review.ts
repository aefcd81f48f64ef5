import type { RunUsage } from "../../claude/index.js";
import { DELIVERY_TEXT, type ProofOfWork } from "../../contract/delivery.js";
import type { ReviewRound } from "../../contract/review.js";
import { status } from "../../contract/statuses.js";
import { parseConversationKey } from "../../identity/conversation.js";
import { reviewArtifact } from "../../delivery/review/render.js";
import type { Reviewer } from "../../delivery/review/reviewer.js";
import { countBySeverity, provenFindings, reviewFate } from "../../delivery/review/verdict.js";
import type { TaskCore } from "./task-core.js";

/** What a task's delivery does after a review. */
export type ReviewStep =
  | { readonly kind: "clean" }
  /** Blocking findings, a fix round left: `prompt` goes back to Claude as a turn of the task. */
  | { readonly kind: "fix"; readonly prompt: string }
  /** Still blocking after the last round, or no review could be had: the task fails with `text`. */
  | { readonly kind: "failed"; readonly text: string }
  /** The task ended meanwhile (canceled): nothing more. */
  | { readonly kind: "stopped" };

/**
 * A task's reviews (docs/delivery.md "Review"): after each green round of checks, the server's
 * reviewer reads the diff since the branch's base in a session of its own; its cost is the task's,
 * each review is a `delivery` status (`step: "review"`) and the `review` artifact is published
 * again with every review so far.
 */
export class TaskReview {
  private readonly reviews: ReviewRound[] = [];

  constructor(
    private readonly core: TaskCore,
    /** The server's reviewer; undefined: this server reviews nothing (the task fails saying so). */
    private readonly reviewer: Reviewer | undefined,
    private readonly addUsage: (usage: RunUsage) => void,
  ) {}

  /** The review after the green checks of `round`. Never throws. */
  async run(round: number, maxRounds: number, signal: AbortSignal): Promise<ReviewStep> {
    const core = this.core;
    const cwd = core.worktree?.cwd;
    const work = core.worktree?.work();
    if (this.reviewer === undefined || cwd === undefined || work === undefined) {
      return { kind: "failed", text: DELIVERY_TEXT.reviewError("this server runs no reviewer") };
    }
    const blocking = this.reviewer.blocking;
    const answer = await this.reviewer.review({
      cwd,
      baseCommit: work.baseCommit,
      round,
      owner: parseConversationKey(core.conversation)?.owner,
      signal,
      addUsage: this.addUsage,
    });
    if (core.ended) return { kind: "stopped" };
    if (answer.kind === "failed") {
      core.logger.warn({ round, why: answer.why }, "delivery: the review failed");
      return { kind: "failed", text: DELIVERY_TEXT.reviewError(answer.why) };
    }
    const review = answer.review;
    this.reviews.push(review);
    const fate = reviewFate(review.findings, blocking, round, maxRounds);
    const blockingCount = fate.kind === "clean" ? 0 : fate.blocking.length;
    core.logger.info(
      { round, findings: review.findings.length, blocking: blockingCount },
      "delivery: review done",
    );
    this.publish();
    core.progress(
      status.deliveryStep(core.ref, DELIVERY_TEXT.reviewed(review, blockingCount), {
        step: "review",
        round,
        findings: countBySeverity(review.findings),
        blocking: blockingCount,
        durationMs: review.durationMs,
      }),
    );
    switch (fate.kind) {
      case "clean":
        return { kind: "clean" };
      case "fix":
        return {
          kind: "fix",
          prompt: DELIVERY_TEXT.reviewFixPrompt(fate.blocking, blocking, round, maxRounds),
        };
      case "blocked":
        return { kind: "failed", text: DELIVERY_TEXT.reviewBlocked(round, fate.blocking) };
    }
  }

  /** The proof of work's review fields: each finding with how it ended, each review's time. */
  proof(): Pick<ProofOfWork, "review" | "reviewRounds"> {
    const blocking = this.reviewer?.blocking ?? "major";
    return {
      review: provenFindings(this.reviews, blocking),
      reviewRounds: this.reviews.map((r) => ({
        round: r.round,
        durationMs: r.durationMs,
        findings: r.findings.length,
      })),
    };
  }

  /** How many reviews ran (the final status's `metadata.delivery.reviews`). */
  get count(): number {
    return this.reviews.length;
  }

  /** The `review` artifact with every review so far (the same id: the latest is kept). */
  private publish(): void {
    const { taskId, contextId } = this.core.ref;
    const data = { blocking: this.reviewer?.blocking ?? "major", reviews: [...this.reviews] };
    this.core.channel.artifact({
      taskId,
      contextId,
      artifact: reviewArtifact(data),
      append: false,
      lastChunk: true,
      metadata: undefined,
    });
  }
}
