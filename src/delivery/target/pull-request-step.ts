import { PUSH_TEXT, type PullRequestRecord } from "../../contract/delivery-push.js";
import type { ForgeConfig } from "../../config/forge-schema.js";
import { ForgeError } from "../../forge/forge.js";
import type { FetchLike } from "../../forge/http.js";
import { openForge } from "../../forge/open.js";
import type { TargetOutcome, TargetStep } from "../target-step.js";
import { pushWork, type PushStepOptions } from "./push-step.js";
import { requestBody, requestTitle } from "./request-text.js";

/**
 * The target `pull-request` (docs/delivery.md "Pull requests"): the push, then a pull request
 * (GitHub) or merge request (GitLab) of the branch into the base branch, opened, or the one
 * already open for the branch updated, with the server's token of `forge.tokenEnv`. Its title is
 * the task's prompt's first line, its body the proof of work.
 */

export interface PullRequestStepOptions extends PushStepOptions {
  readonly forge: ForgeConfig;
  /** The branch it goes into (`claude.delivery.baseBranch`, else the workspace's at startup). */
  readonly baseBranch: () => Promise<string | undefined>;
  readonly fetch?: FetchLike;
}

export function pullRequestStep(o: PullRequestStepOptions): TargetStep {
  return {
    run: async (ctx): Promise<TargetOutcome> => {
      const pushed = await pushWork(ctx, o);
      if (!pushed.ok) return pushed.outcome;
      const push = pushed.record;
      const { branch } = ctx.work;
      const kind = o.forge.kind;
      const failed = (message: string, extra: Record<string, unknown> = {}): TargetOutcome => ({
        kind: "failed",
        text: PUSH_TEXT.requestFailed(kind, message, branch, push.remote),
        record: { push, pullRequest: { forge: kind, ...extra } },
      });
      // A task ended meanwhile (canceled) opens nothing: its outcome is moot.
      if (ctx.signal.aborted) return failed("the task ended before it was opened");
      const base = await o.baseBranch();
      if (base === undefined) return failed(PUSH_TEXT.noBase);
      const opened = openForge(o.forge, o.env, o.fetch);
      if (!opened.ok) return failed(PUSH_TEXT.noToken(o.forge.tokenEnv));
      ctx.progress(PUSH_TEXT.opening(kind, branch, base), { step: "pull-request", base });
      const started = Date.now();
      try {
        const done = await opened.forge.openOrUpdate({
          branch,
          base,
          title: requestTitle(ctx.prompt, branch),
          body: requestBody(ctx.proof),
        });
        const pullRequest: PullRequestRecord = {
          forge: kind,
          number: done.number,
          url: done.url,
          action: done.action,
          durationMs: Date.now() - started,
        };
        ctx.progress(PUSH_TEXT.opened(kind, pullRequest), {
          step: "pull-request",
          result: done.action,
          ...pullRequest,
        });
        return { kind: "delivered", record: { push, pullRequest } };
      } catch (err) {
        const why = err instanceof ForgeError ? err.failure : "unexpected";
        ctx.logger.warn({ forge: kind, branch, outcome: why }, "delivery: pull request failed");
        return failed((err as Error).message, {
          error: why,
          durationMs: Date.now() - started,
        });
      }
    },
  };
}
