import { PUSH_TEXT, type PushRecord } from "../../contract/delivery-push.js";
import type { RemoteConfig } from "../../config/forge-schema.js";
import { pushBranch } from "../push/push-branch.js";
import type { TargetOutcome, TargetStep, TargetStepContext } from "../target-step.js";

/**
 * The target `push` (docs/delivery.md "Push"): the conversation's branch pushed to the
 * workspace's remote by the server's own git, with the token of `remote.tokenEnv` read from the
 * server's environment (push-branch.ts hands it to that one git child only).
 */

export interface PushStepOptions {
  readonly remote: RemoteConfig;
  /** The server's environment: the token is read from it, never Claude's. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The push's time limit (push-branch.ts's default otherwise). */
  readonly timeoutMs?: number;
}

export type PushDone =
  | { readonly ok: true; readonly record: PushRecord }
  | { readonly ok: false; readonly outcome: TargetOutcome };

/** Pushes the task's branch, saying so on the stream; the record, or the failed outcome. */
export async function pushWork(ctx: TargetStepContext, o: PushStepOptions): Promise<PushDone> {
  const { branch, headCommit, cwd } = ctx.work;
  const url = o.remote.url;
  const ref = `refs/heads/${branch}`;
  ctx.progress(PUSH_TEXT.pushing(branch, url), { step: "push", remote: url, ref });
  const started = Date.now();
  const pushed = await pushBranch({
    repoDir: cwd,
    remote: o.remote,
    branch,
    env: o.env,
    logger: ctx.logger,
    signal: ctx.signal,
    ...(o.timeoutMs !== undefined && { timeoutMs: o.timeoutMs }),
  });
  const durationMs = Date.now() - started;
  const record: PushRecord = { remote: url, ref, commit: headCommit, durationMs };
  if (!pushed.ok) {
    const failed: PushRecord = { ...record, error: pushed.failure };
    return {
      ok: false,
      outcome: {
        kind: "failed",
        text: PUSH_TEXT.pushFailed(pushed.message, branch),
        record: { push: failed },
      },
    };
  }
  ctx.progress(PUSH_TEXT.pushed(branch, headCommit, url, durationMs), {
    step: "push",
    result: "pushed",
    ...record,
  });
  return { ok: true, record };
}

export function pushStep(o: PushStepOptions): TargetStep {
  return {
    run: async (ctx) => {
      const done = await pushWork(ctx, o);
      return done.ok ? { kind: "delivered", record: { push: done.record } } : done.outcome;
    },
  };
}
