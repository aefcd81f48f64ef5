import type { TaskStatusUpdateEvent } from "@a2a-js/sdk";
import type { ExecutionEventBus } from "@a2a-js/sdk/server";
import type { ClaudeSession, RunUsage } from "../../claude/index.js";
import { status } from "../../contract/statuses.js";
import { CONTROL_RECORD_KEY } from "../../contract/control.js";
import { WORKTREE_KEY } from "../../contract/worktree.js";
import {
  EMPTY_USAGE,
  usageMetadata,
  type TaskUsage,
  type UsageFigures,
} from "../../contract/usage.js";
import { settleFate } from "./background-wait.js";
import { DENY_FOR_STOP, DENY_TASK_OVER } from "./environment.js";
import type { LifecycleEvent } from "./lifecycle.js";
import type { TaskCore } from "./task-core.js";
import type { TaskDelivery } from "./task-delivery.js";
import {
  addDelegatedUsage,
  addRunUsage,
  budgetStop,
  configuredBudget,
  withStoredUsage,
  type TaskBudget,
} from "./task-usage.js";

/**
 * How a task ends, and what it cost: the steps out of work (`run_ended` into waiting for its
 * background work, `completed`, `failed`, `canceled`), the final statuses with their
 * `metadata.usage` and worktree commit, and the budgets that stop it (its own, its caller's
 * daily one). A feature that ends a task another way (a rewind, a fork) adds its step here.
 */
export class TaskFinish {
  /** The text of its last completed run: the task's result. */
  lastAnswer = "";
  /** What its runs cost so far: `metadata.usage` of its final status. */
  private usage: TaskUsage = EMPTY_USAGE;
  private readonly budget: TaskBudget | undefined;
  /** Its delivery (`metadata.deliver`): checks until green before it completes. */
  delivery: TaskDelivery | undefined;

  constructor(private readonly core: TaskCore) {
    const { origin, env } = core;
    this.budget =
      origin.kind === "client" ? origin.budget : configuredBudget(env.policy.maxBudgetUsd);
  }

  /**
   * A run's `result`: what it cost counts toward the task's usage and budget. A run that
   * outlived its task (canceled, stopped by loop protection) reports it after the final status:
   * the stored task is amended with it.
   */
  addUsage(run: RunUsage): void {
    this.usage = addRunUsage(this.usage, run);
    if (this.core.ended) this.core.channel.amendStored(withStoredUsage(this.usage));
  }

  /** A peer reported what a delegated call cost: `usage.delegated`, within the task's budget. */
  addDelegated(figures: UsageFigures): void {
    this.usage = addDelegatedUsage(this.usage, figures);
    if (this.core.ended) this.core.channel.amendStored(withStoredUsage(this.usage));
  }

  /** The task's own budget's stop text once its runs (and its peers) crossed it, else undefined. */
  overBudget(): string | undefined {
    return budgetStop(this.usage, this.budget);
  }

  /**
   * The client canceled (or `operator`, an operator acting for it): true if this ended the task
   * (it had not ended already).
   */
  cancel(bus: ExecutionEventBus, session: ClaudeSession | undefined, operator?: string): boolean {
    const running = this.core.background.running();
    const canceled = status.canceled(this.core.ref, operator);
    if (!this.end({ type: "canceled" }, canceled)) return false;
    this.core.channel.alsoOn(bus, canceled);
    // Its background work goes with it (the runtime reports each one stopped).
    this.core.stopBackground(running, session);
    return true;
  }

  /** The run that crossed its budget has ended: the task fails, and its background work stops. */
  stopForBudget(text: string): void {
    const running = this.core.background.running();
    this.fail(text);
    this.core.stopBackground(running, this.core.lease?.session, "its task's budget is spent");
  }

  /** With no run active: done, or waiting for its background work (not past the daily budget). */
  settle(): void {
    const core = this.core;
    if (core.ended || core.runs.size > 0 || core.phase.name === "parked") return;
    const stop = core.env.budgetStop(core.conversation, core.background.running().length > 0);
    if (stop !== undefined) {
      this.stopForDailyBudget(stop);
      return;
    }
    switch (settleFate(core.phase, core.runs.size > 0, core.background.pending)) {
      case "stay":
        return;
      case "complete":
        this.complete();
        return;
      case "wait":
        if (!core.step({ type: "run_ended" })) return;
        core.channel.status(status.backgroundWait(core.ref, core.background.running()));
        core.background.armTimeout((ms, running) => {
          if (core.phase.name !== "waiting") return;
          core.channel.status(status.backgroundTimeout(core.ref, ms, running));
          this.complete();
        });
        return;
    }
  }

  /**
   * Its caller's spend reached the daily budget: the turn under way has finished, nothing more
   * runs (its background work is stopped, the wakes it would cause never come), and it completes
   * with the answer it has, saying why.
   */
  stopForDailyBudget(text: string): void {
    if (this.core.ended) return;
    const running = this.core.background.running();
    this.core.stopBackground(running, this.core.lease?.session, "daily budget reached");
    this.core.logger.info("task: stopped after its turn, its caller's daily budget is reached");
    this.complete(text, true);
  }

  /**
   * Ends the task COMPLETED with its last answer (and, if given, why it stopped there: with
   * `budgetReached`, a `budget_reached` status).
   */
  complete(note?: string, budgetReached = false): void {
    const core = this.core;
    if (core.ended) return;
    // A delivery's checks come first, until green (a red one is a new turn, then this again).
    if (note === undefined && this.delivery?.holdCompletion(() => this.complete())) return;
    // With a worktree: the task's changes are committed first, so its end can say what it holds.
    if (core.worktree?.holdCompletion(() => this.complete(note, budgetReached))) return;
    // Then its target step (push, pull request, merge), which needs that commit.
    if (note === undefined && this.delivery?.holdTarget(() => this.complete())) return;
    // Prompts of subagents that outlived the turn: no client will be asked them any more.
    core.prompts.settleAll(DENY_TASK_OVER);
    if (!core.step({ type: "completed" })) return;
    core.prompts.clearTimer();
    core.background.clearTimeout();
    for (const output of core.runs.values()) output.finish();
    // No prompt is pending any more: what was held while one was shown goes out before the end.
    core.releaseHeld();
    const diff = core.worktree?.diffArtifact();
    if (diff !== undefined && core.files.admit(diff)) {
      const { taskId, contextId } = core.ref;
      const update = { taskId, contextId, artifact: diff, append: false, lastChunk: true };
      core.channel.artifact({ ...update, metadata: undefined });
    }
    const proof = this.delivery?.proof();
    if (proof !== undefined) {
      const { taskId, contextId } = core.ref;
      const update = { taskId, contextId, artifact: proof, append: false, lastChunk: true };
      core.channel.artifact({ ...update, metadata: undefined });
    }
    const shown = core.files.finalText(this.lastAnswer);
    if (shown !== "") {
      core.channel.status(status.result(core.ref, shown));
    }
    // A commit that failed (a damaged repository) is said where the client looks last.
    const said = note ?? core.worktree?.failure();
    core.channel.status(
      this.withUsage(
        budgetReached && note !== undefined
          ? status.budgetReached(core.ref, note)
          : status.completed(core.ref, said),
      ),
    );
  }

  fail(reason: string): void {
    this.end({ type: "failed", reason }, status.failed(this.core.ref, reason));
  }

  /** A final status carries what the task cost (and so does the stored task: the SDK merges). */
  private withUsage(event: TaskStatusUpdateEvent): TaskStatusUpdateEvent {
    const core = this.core;
    const sessionId = core.lease?.session.sessionId;
    if (sessionId !== undefined) core.record.sessionId = sessionId;
    const worktree = core.worktree?.metadata()?.[WORKTREE_KEY];
    event.metadata = {
      ...event.metadata,
      ...usageMetadata(this.usage),
      ...(worktree !== undefined && { [WORKTREE_KEY]: worktree }),
      // A rewind's worktree: where it went back to, and the branch keeping what came after.
      ...(core.rewound && {
        [WORKTREE_KEY]: { ...(worktree as object | undefined), rewound: core.rewound },
      }),
      ...(Object.keys(core.record).length > 0 && { [CONTROL_RECORD_KEY]: { ...core.record } }),
      ...this.delivery?.metadata(),
    };
    return event;
  }

  /** Ends the task now: the text so far is closed, one terminal status, every prompt settled. */
  private end(event: LifecycleEvent, final: TaskStatusUpdateEvent): boolean {
    const core = this.core;
    if (!core.step(event)) return false;
    core.prompts.clearTimer();
    core.background.clearTimeout();
    core.held.length = 0;
    for (const output of core.runs.values()) output.finish();
    core.channel.status(this.withUsage(final));
    core.prompts.settleAll(DENY_FOR_STOP);
    for (const call of core.peerCalls) call.abort();
    core.peerCalls.clear();
    for (const runId of core.runs.keys()) core.lease?.session.cancelRun(runId, "task ended");
    return true;
  }
}
