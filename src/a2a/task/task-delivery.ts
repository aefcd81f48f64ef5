import type { Artifact } from "@a2a-js/sdk";
import type { RunStream, RunUsage } from "../../claude/index.js";
import {
  DELIVERY_KEY,
  DELIVERY_TEXT,
  type CheckRun,
  type DeliveryTarget,
} from "../../contract/delivery.js";
import { status } from "../../contract/statuses.js";
import type { DeliveryPlan } from "../../delivery/decision.js";
import { proofArtifact, proofOfWork } from "../../delivery/proof.js";
import { roundFate } from "../../delivery/rounds.js";
import type { DeliveryOutcome } from "../../delivery/runner.js";
import type { TargetOutcome, TargetRecord, TargetStepContext } from "../../delivery/target-step.js";
import { promptText, SESSION_GONE, targetWork } from "./delivery-parts.js";
import type { TaskCore } from "./task-core.js";
import { TaskReview } from "./task-review.js";

/**
 * A task's delivery (docs/delivery.md): where the task would complete, its checks run in the
 * conversation's worktree first; a red one goes back to Claude as a new turn of the same task
 * (`startTurn`), and the checks run again when that turn ends, up to the plan's fix rounds. Green,
 * the task completes as it would have, with a `proof-of-work` artifact; still red, it fails with
 * the last failing output. Each check's run is a `delivery` status.
 */
export class TaskDelivery {
  private state: "idle" | "checking" | "fixing" | "green" | "delivering" | "delivered" | "over" =
    "idle";
  private round = 0;
  /** What the target step recorded (push, pull request, merge), for the proof and metadata. */
  private targetRecord: TargetRecord = {};
  private readonly runs: CheckRun[] = [];
  private readonly stop = new AbortController();
  /** Its reviews, when its plan asks for one (task-review.ts). */
  private readonly review: TaskReview | undefined;

  constructor(
    private readonly core: TaskCore,
    private readonly plan: DeliveryPlan,
    private readonly fail: (text: string) => void,
    /** Starts a fix turn as the task's foreground run. */
    private readonly startTurn: (stream: RunStream) => void,
    /** Asks a person before the target step changes anything (a merge's approval). */
    private readonly ask: TargetStepContext["ask"] = () => Promise.resolve({ kind: "gone" }),
    /** Adds a run's cost to the task's usage (its reviewer's sessions). */
    addUsage: (usage: RunUsage) => void = () => undefined,
  ) {
    this.review = plan.review
      ? new TaskReview(core, core.env.delivery?.reviewer, addUsage)
      : undefined;
    void core.endedGate.then(() => {
      this.stop.abort();
      const counted = this.state === "over" || this.state === "delivered";
      const greenBranch = this.state === "green" && plan.target === "branch";
      if (!counted && !greenBranch) this.over("stopped");
    });
  }

  /**
   * Called where the task would complete: true while the checks (or a fix turn) hold it, and
   * `then` is called once they are green; false once green, so it completes now.
   */
  holdCompletion(then: () => void): boolean {
    switch (this.state) {
      case "green":
      case "delivering":
      case "delivered":
        return false;
      case "checking":
      case "over":
        return true;
      case "idle":
      case "fixing":
        this.state = "checking";
        this.runRound().then(
          (green) => {
            if (green) then();
          },
          (err: unknown) => {
            this.core.logger.error({ err }, "delivery: a round failed");
            this.over("red");
            this.fail(DELIVERY_TEXT.roundError(err instanceof Error ? err.message : String(err)));
          },
        );
        return true;
    }
  }

  /**
   * Called where the task would complete, after its commit: true while the target step (push,
   * pull request, merge) holds it, and `then` is called once it delivered (or a person declined);
   * false once it has, or for the target `branch`, which has no step.
   */
  holdTarget(then: () => void): boolean {
    const target = this.plan.target;
    if (target === "branch") return false;
    switch (this.state) {
      case "delivered":
        return false;
      case "delivering":
      case "over":
        return true;
      case "idle":
      case "checking":
      case "fixing":
        // Not green: holdCompletion decides; nothing to deliver.
        return false;
      case "green":
        this.state = "delivering";
        this.runTarget(target).then(
          (mayComplete) => {
            if (mayComplete) then();
          },
          (err: unknown) => {
            this.core.logger.error({ err }, "delivery: its target step failed");
            this.over("undelivered");
            this.fail(DELIVERY_TEXT.stepError(err instanceof Error ? err.message : String(err)));
          },
        );
        return true;
    }
  }

  /** The final status's `metadata.delivery`: what it asked, how many rounds, what its step did. */
  metadata(): Record<string, unknown> {
    const { target, review, maxRounds } = this.plan;
    const checks = this.plan.checks.map((c) => c.name);
    return {
      [DELIVERY_KEY]: {
        target,
        checks,
        review,
        maxRounds,
        rounds: this.round,
        ...(this.review && { reviews: this.review.count }),
        ...this.targetRecord,
      },
    };
  }

  /** The `proof-of-work` artifact of a green delivery, once its commit is made. */
  proof(): Artifact | undefined {
    const work = this.core.worktree?.work();
    if ((this.state !== "green" && this.state !== "delivered") || work === undefined) {
      return undefined;
    }
    return proofArtifact({
      ...proofOfWork(this.plan.target, work, this.runs),
      ...this.review?.proof(),
      ...this.targetRecord,
    });
  }

  /** The target step: true when the task may complete; false when it failed it or reworks. */
  private async runTarget(target: Exclude<DeliveryTarget, "branch">): Promise<boolean> {
    const core = this.core;
    const step = core.env.delivery?.targetStep?.(target);
    const work = core.worktree?.work();
    const cwd = core.worktree?.cwd;
    if (step === undefined || work === undefined || cwd === undefined) {
      this.over("undelivered");
      this.fail(DELIVERY_TEXT.stepError(`this server cannot deliver to ${target}`));
      return false;
    }
    const outcome: TargetOutcome = await step.run({
      target,
      plan: this.plan,
      work: targetWork(cwd, work),
      prompt: promptText(core),
      proof: { ...proofOfWork(this.plan.target, work, this.runs), ...this.review?.proof() },
      signal: this.stop.signal,
      logger: core.logger,
      progress: (text, metadata) => core.progress(status.deliveryStep(core.ref, text, metadata)),
      ask: this.ask,
    });
    this.targetRecord = { ...this.targetRecord, ...outcome.record };
    if (core.ended) return false;
    switch (outcome.kind) {
      case "delivered":
        this.state = "delivered";
        core.env.delivery?.ended?.("green", this.round);
        return true;
      case "declined":
        this.state = "delivered";
        core.env.delivery?.ended?.("declined", this.round);
        return true;
      case "failed":
        this.over("undelivered");
        this.fail(outcome.text);
        return false;
      case "rework":
        // Back to Claude; its turn's end runs the checks, the commit and this step again.
        core.worktree?.rearm();
        this.backToClaude(outcome.prompt, "undelivered", DELIVERY_TEXT.stepError(SESSION_GONE));
        return false;
    }
  }

  /**
   * Back to Claude as a new turn of the task, in its conversation (a red check, blocking
   * findings, a merge's conflict); without its session the delivery ends `outcome`, saying `why`.
   */
  private backToClaude(prompt: string, outcome: DeliveryOutcome, why: string): void {
    const session = this.core.lease?.session;
    if (session === undefined) {
      this.over(outcome);
      this.fail(why);
      return;
    }
    this.state = "fixing";
    const settings = this.core.origin.kind === "client" ? this.core.origin.settings : {};
    // After an answered ask no run was active (waiting): this turn is the task's work again.
    if (this.core.phase.name === "waiting") this.core.step({ type: "run_started" });
    this.startTurn(session.stream(prompt, settings));
  }

  /** One round: every check in order; true when green (the task may complete). */
  private async runRound(): Promise<boolean> {
    const core = this.core;
    const cwd = core.worktree?.cwd;
    const runner = core.env.delivery;
    if (cwd === undefined || runner === undefined) {
      this.over("red");
      this.fail(DELIVERY_TEXT.roundError("the server runs no delivery here"));
      return false;
    }
    this.round += 1;
    const round: CheckRun[] = [];
    for (const check of this.plan.checks) {
      const run = await runner.run(check, this.round, cwd, this.stop.signal);
      if (core.ended) return false;
      round.push(run);
      this.runs.push(run);
      runner.checked?.(run);
      core.logger.info(
        { round: run.round, check: run.check, result: run.result, exitCode: run.exitCode },
        "delivery: check ran",
      );
      core.progress(status.delivery(core.ref, run));
    }
    const fate = roundFate(round, this.round, this.plan.maxRounds);
    switch (fate.kind) {
      case "green":
        if (this.review !== undefined && !(await this.reviewed())) return false;
        this.state = "green";
        // A target with a step counts its outcome when the step ends.
        if (this.plan.target === "branch") runner.ended?.("green", this.round);
        return true;
      case "fix":
        this.fixTurn(fate.failed);
        return false;
      case "red":
        this.over("red");
        this.fail(DELIVERY_TEXT.stillRed(this.round, fate.last));
        return false;
    }
  }

  /** The failing checks go back to Claude as a new turn of the task, in its conversation. */
  private fixTurn(failed: readonly CheckRun[]): void {
    const last = failed.at(-1);
    if (last === undefined) return this.over("red");
    const prompt = DELIVERY_TEXT.fixPrompt(failed, this.round, this.plan.maxRounds);
    this.backToClaude(prompt, "red", DELIVERY_TEXT.stillRed(this.round, last));
  }

  /** After green checks (task-review.ts): true when clean, else a fix turn or the task failed. */
  private async reviewed(): Promise<boolean> {
    const step = await (this.review as TaskReview).run(
      this.round,
      this.plan.maxRounds,
      this.stop.signal,
    );
    if (this.core.ended) return false;
    switch (step.kind) {
      case "clean":
        return true;
      case "fix":
        this.backToClaude(step.prompt, "red", DELIVERY_TEXT.stepError(SESSION_GONE));
        return false;
      case "failed":
        this.over("red");
        this.fail(step.text);
        return false;
      case "stopped":
        return false;
    }
  }

  private over(outcome: DeliveryOutcome): void {
    if (this.state === "over") return;
    this.state = "over";
    this.core.env.delivery?.ended?.(outcome, this.round);
  }
}
