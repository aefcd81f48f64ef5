import type { Logger } from "pino";
import type { DeliveryTarget, ProofOfWork } from "../contract/delivery.js";
import type { WorktreeFileChange } from "../contract/worktree.js";
import type { MergeApprovalData } from "../contract/merge-approval.js";
import type { DeliveryPlan } from "./decision.js";

/**
 * The step of a delivery after its checks (and review) are green and the task's changes are
 * committed on the conversation's branch: where the work goes (docs/delivery.md). `branch` has
 * none; `push`, `pull-request` and `merge` each have one, given by the server's runner
 * (`DeliveryRunner.targetStep`).
 */
export interface TargetStep {
  /** Runs the step to its end (stopped on `ctx.signal`); never throws: a failure is an outcome. */
  run(ctx: TargetStepContext): Promise<TargetOutcome>;
}

/** The task's work as the step finds it: committed on the conversation's branch. */
export interface TargetWork {
  /** The conversation's worktree (the server's own git runs there). */
  readonly cwd: string;
  readonly branch: string;
  /** The branch before the task's first commit, and its head now. */
  readonly baseCommit: string;
  readonly headCommit: string;
  readonly files: readonly WorktreeFileChange[];
}

export interface TargetStepContext {
  readonly target: Exclude<DeliveryTarget, "branch">;
  readonly plan: DeliveryPlan;
  readonly work: TargetWork;
  /** The text of the task's first message ("" for none): a pull request's title comes from it. */
  readonly prompt: string;
  /** The proof of work so far (checks, review): a pull request's body is built from it. */
  readonly proof: ProofOfWork;
  /** Aborted when the task ends otherwise (canceled, say): the step stops and its outcome is moot. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /**
   * Says a stage of the step on the task's stream: a `working` status with `metadata.kind`
   * `delivery` and these fields (`step`, what it did): progress, not kept in the history.
   */
  readonly progress: (text: string, metadata: Readonly<Record<string, unknown>>) => void;
  /**
   * Asks a person before the step changes anything (a merge's approval): the task goes
   * input-required with kind `merge_approval` until the answer comes, as an ordinary message on
   * the task (docs/delivery.md "Merge on approval"), then works on. Only a clear yes is `yes`.
   */
  readonly ask: (approval: MergeApprovalData) => Promise<ApprovalAnswer>;
}

/** What a person answered to `ask`: `by` is `"caller"` or the operator's name. */
export type ApprovalAnswer =
  | { readonly kind: "yes"; readonly by: string }
  | { readonly kind: "no"; readonly reason: string; readonly by: string }
  /** No answer: the task ended first (canceled, failed by the input timeout). */
  | { readonly kind: "gone" };

/**
 * What the step came to. Each carries `record`: the fields it adds to the proof of work and to the
 * final status's `metadata.delivery` (a push's remote and commit, a pull request's number and URL,
 * a merge's outcome), each with its own `durationMs` (the bench reads them).
 */
export type TargetOutcome =
  /** The work is where the target says: the task completes with its proof of work. */
  | { readonly kind: "delivered"; readonly record: TargetRecord }
  /** It could not be (remote down, token refused): the task fails with `text`, the branch kept. */
  | { readonly kind: "failed"; readonly text: string; readonly record: TargetRecord }
  /** A person said no (a merge refused): the task completes, the branch kept, `reason` recorded. */
  | { readonly kind: "declined"; readonly reason: string; readonly record: TargetRecord }
  /**
   * The work needs another turn first (a merge whose base moved and conflicts): `prompt` goes back
   * to Claude as a fix turn of the task, then the checks, the commit and this step run again.
   */
  | { readonly kind: "rework"; readonly prompt: string; readonly record: TargetRecord };

/** A step's fields in the proof of work: keyed by what it did (`push`, `pullRequest`, `merge`). */
export type TargetRecord = Readonly<Record<string, unknown>>;
