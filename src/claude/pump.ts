import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { PermissionMode } from "@anthropic-ai/claude-agent-sdk";
import type { Logger } from "pino";
import type { SessionCore } from "./core.js";
import { Normalizer, textOf, type NormalizedEvent } from "./normalize.js";
import { identifiersOf, route, type EventIdentifiers, type RouteDecision } from "./router.js";
import { isActiveLifecycle, outcomeFromResult, type Run } from "./run-tracker.js";
import type { QueryHandle } from "./sdk.js";
import { reportedPermissionMode } from "./turn-settings.js";

export type PumpEnd = { kind: "ended" } | { kind: "threw"; error: unknown };

/**
 * Longest the pump handles messages without letting the event loop run (ms). Messages the SDK has
 * buffered resolve `next()` as microtasks: a long answer's thousands of deltas would otherwise be
 * handled in one go while `/healthz`, other contexts and the flush timers wait.
 */
const SLICE_MS = 2;

/**
 * The only caller of `query.next()`. For each SDK message: normalize, route (one decision
 * point), feed the timeline whoever owns the message, then update runs and turn state. It never
 * throws: a failure while handling one message fails the run that message belonged to.
 */
export class QueryPump {
  private readonly normalizer: Normalizer;
  private readonly logger: Logger;
  /** Set by a deliberate close: why (what the runs still active are told). */
  private closing: string | undefined;

  constructor(
    private readonly handle: QueryHandle,
    private readonly core: SessionCore,
    /** The runtime reported the permission mode it now runs in (`reportedPermissionMode`). */
    private readonly onPermissionMode: (mode: PermissionMode) => void = () => undefined,
  ) {
    this.logger = core.logger.child({ module: "pump" });
    this.normalizer = new Normalizer(core.usage, core.refusals);
  }

  /** A deliberate close: runs still active end as interrupted (with `reason`), not as failures. */
  markClosing(reason: string): void {
    this.closing = reason;
  }

  async run(): Promise<void> {
    let sliceStart = performance.now();
    for (;;) {
      if (performance.now() - sliceStart > SLICE_MS) {
        await yieldToEventLoop();
        sliceStart = performance.now();
      }
      let step: IteratorResult<unknown, void>;
      try {
        step = await this.handle.next();
      } catch (error) {
        this.finish({ kind: "threw", error });
        return;
      }
      if (step.done === true) {
        this.finish({ kind: "ended" });
        return;
      }
      this.handleMessage(step.value);
    }
  }

  private handleMessage(message: unknown): void {
    let runId: string | undefined;
    try {
      const event = this.normalizer.normalize(message);
      const ids = identifiersOf(event);
      const decision = route(event, this.core.routeContext(), ids);
      runId = this.target(decision);
      // Guarded: the arguments alone cost more than the rest of a delta's routing.
      if (this.logger.isLevelEnabled("debug")) {
        this.logger.debug({ event: describe(event), decision, runId }, "route: event -> run");
        if (event.kind === "result") this.logger.debug({ runId, usage: event.usage }, "run: usage");
      }
      this.observe(event);
      // Always, before any lifecycle change: the timeline must not depend on routing.
      this.core.timeline.apply(event, runId);
      for (const change of this.core.tasks.apply(event)) {
        if (change.type === "finished") this.core.backgroundFinished(change.task.taskId);
        this.core.emitter.emit({ type: `background_task_${change.type}`, task: change.task });
      }
      if (decision.kind === "metadata") {
        if (event.kind === "result") this.core.turnEnded();
        this.core.emitter.emit(
          runId === undefined ? { type: "metadata", event } : { type: "metadata", event, runId },
        );
      } else if (runId !== undefined) {
        this.deliver(runId, event, ids);
      }
    } catch (error) {
      this.logger.error({ err: error, runId }, "pump: handling a message failed");
      if (runId !== undefined) {
        this.core.endRun(
          runId,
          { state: "error", reason: `internal error: ${errorText(error)}` },
          "internal error",
        );
      }
    }
  }

  private target(decision: RouteDecision): string | undefined {
    switch (decision.kind) {
      case "run":
        return decision.runId;
      case "new_autonomous":
        return this.core.startAutonomousRun("first routable autonomous event").id;
      case "metadata":
        return decision.attributedRunId;
    }
  }

  private observe(event: NormalizedEvent): void {
    const mode = reportedPermissionMode(event);
    if (mode !== undefined) this.onPermissionMode(mode);
    const id = event.kind === "init" || event.kind === "result" ? event.sessionId : undefined;
    if (id !== undefined && this.core.adoptSessionId(id)) {
      this.core.emitter.emit({ type: "session_id", sessionId: id });
    }
  }

  private deliver(runId: string, event: NormalizedEvent, ids: EventIdentifiers): void {
    const core = this.core;
    const run = core.runs.get(runId);
    if (run === undefined) {
      this.logger.error({ runId }, "pump: routed to an unknown run");
      return;
    }
    this.recordOwnership(run, event);
    if (!isActiveLifecycle(run.state)) {
      core.emitter.emit({ type: "run_event", runId, origin: run.origin, event, late: true });
      return;
    }
    const fg = core.foreground;
    if (fg?.runId === runId && !fg.bound && ids.sends.includes(fg.userMessageUuid)) {
      this.bind(run, event);
    }
    const steered = core.steers.take(runId, ids.sends);
    if (steered.length > 0) core.emitter.emit({ type: "run_steered", runId, uuids: steered });
    // The runtime runs one turn at a time: its main-thread content names the turn's owner; a
    // subagent frame claims an unowned turn so the turn's later frames have somewhere to go.
    if (event.kind !== "result" && (ids.topLevel || core.turnOwner === undefined)) {
      core.ownTurn(runId);
    }
    if (run.state === "awaiting_response" && event.kind !== "result") {
      core.runs.transition(runId, "streaming", `first ${event.kind} frame`);
    }
    if (event.kind === "assistant" && ids.topLevel) {
      const text = core.timeline.get(event.messageId)?.text ?? textOf(event.content);
      if (text !== "") run.lastText = text;
      run.failureCause = event.cause;
    }
    core.emitter.emit({ type: "run_event", runId, origin: run.origin, event, late: false });
    if (event.kind === "result") {
      core.turnEnded();
      // A steering message the turn did not take runs as the runtime's next turn: still this run.
      const waiting = core.steers.firstWaiting(runId);
      if (waiting !== undefined && run.origin === "foreground" && !core.processEnded) {
        core.foregroundSent(runId, waiting);
        return;
      }
      core.endRun(runId, outcomeFromResult(event, run), `result ${event.subtype}`);
    }
  }

  /** Our stamp arrived: the runtime's current turn is the foreground's from here on. */
  private bind(run: Run, event: NormalizedEvent): void {
    const core = this.core;
    if (core.foreground === undefined) return;
    core.foregroundBound();
    // Notifications that came before our turn began are folded into it: they wake nothing.
    const folded = core.takePendingCauses();
    if (folded.length > 0) {
      core.emitter.emit({
        type: "background_notifications_folded",
        taskIds: folded,
        runId: run.id,
      });
    }
    const previous = core.turnOwner;
    this.logger.debug({ runId: run.id, previousOwner: previous }, "route: foreground turn bound");
    if (run.interruptRequested && startsFreshResponse(event)) {
      // The interrupt was asked before our turn began, so it stopped the turn ahead of ours.
      this.logger.debug({ runId: run.id }, "pump: re-sending interrupt for the foreground turn");
      this.handle.interrupt().catch((error: unknown) => {
        this.logger.warn({ err: error }, "pump: interrupt request failed");
      });
    }
    if (previous !== undefined && previous !== run.id) {
      // The runtime folded our prompt into the turn it was running: that turn is ours now.
      const other = core.runs.get(previous);
      core.endRun(
        previous,
        { state: "completed", text: other?.lastText ?? "" },
        "turn continued by the foreground prompt",
      );
    }
  }

  private recordOwnership(run: Run, event: NormalizedEvent): void {
    const owners = this.core.owners;
    if (event.kind === "assistant") {
      owners.recordMessage(event.messageId, run.id);
      for (const block of event.content) {
        if (block.type === "tool_use") owners.recordToolUse(block.id, run.id);
      }
    } else if (event.kind === "stream") {
      if (event.messageId !== undefined) owners.recordMessage(event.messageId, run.id);
      if (event.part.type === "content_block_start" && event.part.block.type === "tool_use") {
        owners.recordToolUse(event.part.block.id, run.id);
      }
    }
  }

  private finish(end: PumpEnd): void {
    const core = this.core;
    const detail = end.kind === "threw" ? `: ${errorText(end.error)}` : "";
    const closing = this.closing;
    const reason = closing ?? `Claude Code process ended before the run finished${detail}`;
    this.logger.debug({ end: end.kind, closing, detail }, "pump: stream ended");
    try {
      core.processGone(reason, closing === undefined);
      // Foreground first: its ending lets the session fail the prompts queued behind it.
      const active = core.runs.active().sort((a, b) => a.seq - b.seq);
      for (const run of active) {
        core.endRun(
          run.id,
          closing !== undefined
            ? { state: "interrupted", text: run.lastText, reason }
            : { state: "error", reason },
          reason,
        );
      }
      core.turnEnded();
      core.refreshStatus();
      // Closing the process ends its background work too (the runtime reports nothing more):
      // the tasks waiting for it learn why instead of waiting for a wake that cannot come.
      if (closing !== undefined) {
        for (const change of core.tasks.endAll(closing)) {
          core.emitter.emit({ type: `background_task_${change.type}`, task: change.task });
        }
      }
      core.emitter.emit({ type: "closed", reason });
    } catch (error) {
      this.logger.error({ err: error }, "pump: failing runs at stream end failed");
    }
  }
}

/** A frame the model produces only for a live response (teardown frames are neither). */
function startsFreshResponse(event: NormalizedEvent): boolean {
  if (event.kind === "stream") return event.part.type === "message_start";
  return event.kind === "assistant" && !event.aborted;
}

function describe(event: NormalizedEvent): Record<string, unknown> {
  switch (event.kind) {
    case "assistant":
      return { kind: event.kind, messageId: event.messageId, parent: event.parentToolUseId };
    case "stream":
      return { kind: event.kind, part: event.part.type, messageId: event.messageId };
    case "result":
      return { kind: event.kind, subtype: event.subtype, sends: event.userMessageUuids };
    case "user":
      return { kind: event.kind, uuid: event.uuid, parent: event.parentToolUseId };
    case "metadata":
      return { kind: event.kind, type: event.type, subtype: event.subtype };
    case "task_started":
    case "task_updated":
    case "task_progress":
    case "task_notification":
      return { kind: event.kind, taskId: event.taskId };
    case "init":
    case "background_tasks_changed":
    case "session_state_changed":
    case "api_retry":
      return { kind: event.kind };
  }
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
