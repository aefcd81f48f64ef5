import type { TaskStatusUpdateEvent } from "@a2a-js/sdk";
import type { ClaudeSession, RunStream, RunStreamEvent } from "../../claude/index.js";
import { status } from "../../contract/statuses.js";
import { TEXT } from "../../contract/texts.js";
import { runEndFate } from "./run-end.js";
import { RunOutput } from "./run-output.js";
import { RunTrace } from "./run-trace.js";
import type { TaskCore } from "./task-core.js";
import type { TaskFinish } from "./task-finish.js";
import type { TaskInput } from "./task-input.js";
import type { TaskSteer } from "./task-steer.js";

/**
 * A task's runs, from their first event to their terminal one: the step into work when the
 * prompt reaches Claude (`prompt_sent`), a wake taken over while the task waits (`run_started`),
 * what each run shows the client (through its RunOutput) and traces, and what its end means
 * (`run-end.ts`). Run-level features (steering a run, a cold start's first run) land here.
 */
export class TaskRuns {
  /** The task's next turn, started when its run ended with steering messages left over. */
  private nextTurn: RunStream | undefined;

  constructor(
    private readonly core: TaskCore,
    private readonly input: TaskInput,
    private readonly finish: TaskFinish,
    private readonly steer: TaskSteer,
  ) {}

  /**
   * Takes over a run already under way: the wake its background work caused (or, for an
   * autonomous task, the wake it was created for). False if the task cannot take it.
   */
  adopt(session: ClaudeSession, runId: string): boolean {
    const core = this.core;
    if (core.ended) return false;
    if (core.phase.name === "waiting" && !core.step({ type: "run_started" })) return false;
    const stream = session.follow(runId);
    if (stream === undefined) return false;
    core.lease ??= core.env.acquire(core.conversation);
    core.background.clearTimeout();
    void this.consume(stream, false);
    return true;
  }

  /** Reads a run to its terminal event, whatever the task's phase: only then is the run over. */
  async consume(stream: RunStream, foreground: boolean): Promise<void> {
    const core = this.core;
    const runId = stream.runId;
    core.ownedRuns.add(runId);
    core.own(runId);
    const streaming = core.env.streaming;
    const coalescing = streaming && { timers: core.env.timers, ...streaming };
    const progress = (update: TaskStatusUpdateEvent) => core.progress(update);
    const output = new RunOutput(
      core.ref,
      runId,
      core.channel,
      progress,
      coalescing,
      core.env.toolOutputBytes,
    );
    core.runs.set(runId, output);
    const ids = { ...core.spanIds, "claude.run.id": runId };
    const origin = foreground ? "foreground" : "autonomous";
    const trace = new RunTrace(
      core.span.child("claude.run", { ...ids, "claude.run.origin": origin }),
      ids,
    );
    if (foreground) {
      core.foregroundRun = runId;
      this.steer.runStarted();
    }
    for await (const event of stream) {
      trace.onEvent(event);
      this.handle(runId, foreground, event);
    }
    if (core.foregroundRun === runId) core.foregroundRun = undefined;
    if (core.runs.delete(runId) && !core.ended) {
      this.finish.fail(TEXT.runEndedWithoutResult);
    }
    const next = this.nextTurn;
    this.nextTurn = undefined;
    if (next !== undefined) await this.consume(next, true);
  }

  private handle(runId: string, foreground: boolean, event: RunStreamEvent): void {
    const core = this.core;
    const output = core.runs.get(runId);
    switch (event.kind) {
      case "prompt_sent":
        if (core.step({ type: "prompt_sent" })) {
          core.channel.status(status.working(core.ref));
          this.input.showNext();
        }
        return;
      case "steered":
        this.steer.onSteered(event.uuids);
        return;
      case "run_completed":
      case "run_failed":
      case "run_interrupted":
        core.runs.delete(runId);
        if (core.ended) return;
        output?.finish();
        // A prompt that waited for a frame of this run waits no more (prompt-order.ts).
        this.input.showNext();
        // Steering that came as the run ended runs as the task's next turn, not lost; a run
        // that failed takes none, and the task's end names them.
        if (foreground) {
          this.nextTurn = event.kind === "run_completed" ? this.steer.nextTurn() : undefined;
          core.foregroundRun = this.nextTurn?.runId;
        }
        if (this.nextTurn === undefined) {
          const untaken = foreground && event.kind !== "run_completed" ? this.steer.untaken() : [];
          this.onRunEnded(event, foreground, untaken);
        }
        return;
      default:
        if (event.kind === "result") this.finish.addUsage(event.usage);
        if (core.ended) return;
        output?.onEvent(event);
        // A prompt of this frame's tool call may have been waiting for its `tool_use` status.
        if (event.kind === "assistant") this.input.showNext();
        return;
    }
  }

  private onRunEnded(
    event: Extract<RunStreamEvent, { kind: `run_${string}` }>,
    foreground: boolean,
    untakenSteering: readonly string[],
  ): void {
    const core = this.core;
    const fate = runEndFate(event, {
      foreground,
      origin: core.origin.kind,
      overBudget: this.finish.overBudget(),
      untakenSteering,
    });
    switch (fate.kind) {
      case "over_budget":
        this.finish.stopForBudget(fate.text);
        return;
      case "settle":
        if (fate.answer !== undefined) this.finish.lastAnswer = fate.answer;
        this.finish.settle();
        return;
      case "fail":
        if (event.kind === "run_failed" && event.cause === "authentication_failed") {
          core.logger.warn(
            { runId: event.runId, runtimeText: event.reason },
            "task failed: Claude Code is not logged in (see claude-a2a --check)",
          );
        }
        this.finish.fail(fate.text);
        return;
      case "complete":
        this.finish.complete(fate.note);
        return;
      case "wake_interrupted":
        core.progress(status.wakeInterrupted(core.ref));
        this.finish.settle();
        return;
    }
  }
}
