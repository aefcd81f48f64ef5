import { ClaudeSession } from "../claude/index.js";
import { DEFAULT_REVIEW_RUBRIC } from "../contract/review.js";
import { reviewerOptions } from "../delivery/review/review-options.js";
import { reviewer, type ReviewerSessions } from "../delivery/review/reviewer.js";
import type { DeliveryRunner } from "../delivery/runner.js";
import { processBoundary } from "./boundary-options.js";
import type { SessionWiring } from "./session-factory.js";

/** What a reviewer is told when a tool would need a permission: none is ever asked. */
const NOT_ASKED = "The reviewer works read-only: this needs a permission, and none is asked.";

/** A workspace's delivery runner with its reviewer (docs/delivery.md "Review"). */
export function withReviewer(
  runner: DeliveryRunner | undefined,
  w: SessionWiring,
  slots: ReviewerSlots,
): DeliveryRunner | undefined {
  const delivery = w.config.claude.delivery;
  if (runner === undefined || delivery === undefined) return runner;
  const sessions = reviewerSessions(w, slots);
  return {
    ...runner,
    reviewer: reviewer(
      sessions,
      delivery.reviewBlocking,
      delivery.reviewRubric ?? DEFAULT_REVIEW_RUBRIC,
    ),
  };
}

/** Where a reviewer's process gets its slot under `sessions.maxLive` (the pool's). */
export interface ReviewerSlots {
  holdSlot(signal?: AbortSignal): Promise<() => void>;
}

/**
 * Each review's session: new (not resumed, not in the pool nor the session map), in the
 * worktree, read-only (`reviewerOptions`), on the workspace's model settings and environment,
 * inside the workspace's boundary when its sandbox is on; a tool that would ask is denied. Its
 * process holds a slot of the pool's cap from before it starts until it has closed.
 */
export function reviewerSessions(w: SessionWiring, slots: ReviewerSlots): ReviewerSessions {
  return async (cwd, owner, signal) => {
    const release = await slots.holdSlot(signal);
    try {
      return open(cwd, owner, release);
    } catch (err) {
      release();
      throw err;
    }
  };

  function open(cwd: string, owner: string | undefined, release: () => void): ClaudeSession {
    const { claude } = w.config;
    const env = w.passthrough.env ?? w.claudeEnv;
    const boundary =
      w.boundary &&
      processBoundary(w.boundary, {
        settingSources: claude.settingSources,
        cwd,
        sdkOptions: {},
        env: env ?? process.env,
        session: () => session,
        owner: () => owner,
      });
    const options = reviewerOptions({
      cwd,
      model: claude.model,
      effort: claude.effort,
      fallbackModel: claude.fallbackModel,
      settingSources: claude.settingSources,
      maxTurns: claude.maxTurns,
      sandbox: boundary?.options.sandbox ?? w.sandbox,
    });
    const session: ClaudeSession = new ClaudeSession({
      ...options,
      ...(boundary ? { env: boundary.options.env } : env && { env }),
      sdkOptions: {
        ...w.sdkOptions,
        ...boundary?.options.sdkOptions,
        ...options.sdkOptions,
      },
      ...(w.queryFactory && { queryFactory: w.queryFactory }),
      logger: w.logger.child({ component: "reviewer" }),
      canUseTool: (toolName, input, o) =>
        Promise.resolve(
          boundary?.refuseWidening(toolName, input, o.toolUseID) ?? {
            behavior: "deny",
            message: NOT_ASKED,
          },
        ),
      ...(boundary && { hooks: { PreToolUse: [boundary.guard] } }),
    });
    session.subscribe((event) => {
      if (event.type !== "closed") return;
      boundary?.cleanup();
      release();
    });
    return session;
  }
}
