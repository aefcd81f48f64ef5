import { randomUUID } from "node:crypto";
import type { RewindFilesResult } from "@anthropic-ai/claude-agent-sdk";
import { pino, type Logger } from "pino";
import { AsyncQueue } from "./async-queue.js";
import type { BackgroundTask } from "./background-tasks.js";
import { SessionCore } from "./core.js";
import type { RunStreamEvent, RunTerminalEvent, SessionListener } from "./events.js";
import type { SteerOutcome, SteerPriority } from "./steering.js";
import type { ClaudeSessionOptions } from "./options.js";
import { PromptQueue, type UserPrompt } from "./prompt-queue.js";
import { isActiveLifecycle, type Run, type RunOutcome, type SessionStatus } from "./run-tracker.js";
import type { SandboxViolation } from "./sandbox-violations.js";
import { SESSION_CLOSED, SessionProcess } from "./session-process.js";
import type { TimelineEntry } from "./timeline.js";
import type { TurnStateName } from "./turn-state.js";
import type { TurnSettings } from "./turn-settings.js";

export type { UserPrompt } from "./prompt-queue.js";
export type FinishStatus = Exclude<SessionStatus, "running"> | "timeout";

/** The events of one foreground run; `runId` ties it to the session events. */
export interface RunStream extends AsyncIterable<RunStreamEvent> {
  readonly runId: string;
  /** The uuid of the user message the run began at (the runtime's transcript keeps it). */
  readonly promptUuid?: string;
}

export interface RunSnapshot {
  id: string;
  origin: Run["origin"];
  state: Run["state"];
  outcome?: RunOutcome;
}

/**
 * One conversation: one long-lived Claude Code process in streaming-input mode, one foreground
 * run at a time, autonomous runs when the runtime wakes by itself. This is the provider's public
 * API (stream, follow, interrupt, cancel, close, history) and each run's stream; the prompts
 * wait their turn in the prompt queue (prompt-queue.ts), the process lives and ends in
 * session-process.ts, the shared state is SessionCore's (core.ts), routing the pump's (pump.ts).
 */
export class ClaudeSession {
  private readonly core: SessionCore;
  private readonly logger: Logger;
  private readonly channels = new Map<string, AsyncQueue<RunStreamEvent>>();
  private readonly newId: () => string;
  private readonly process: SessionProcess;
  private readonly queue: PromptQueue;

  constructor(options: ClaudeSessionOptions) {
    this.logger = (options.logger ?? pino({ level: "silent" })).child({ component: "claude" });
    this.newId = options.newId ?? randomUUID;
    this.core = new SessionCore(this.logger, this.newId);
    this.core.attach({
      takeHandoff: () => this.queue.takeHandoff(),
      onRunEnded: (run) => this.queue.onRunEnded(run),
    });
    // A run's stream is fed from the session events, so it sees them in the one order they have.
    this.core.emitter.subscribe((event) => {
      if (event.type === "run_event" && !event.late) {
        this.channels.get(event.runId)?.push(event.event);
      } else if (event.type === "run_state" && event.from === "queued") {
        if (event.to === "awaiting_response") {
          this.channels.get(event.runId)?.push({ kind: "prompt_sent", runId: event.runId });
        }
      } else if (event.type === "run_steered") {
        this.channels.get(event.runId)?.push({ kind: "steered", ...event });
      } else if (event.type === "run_ended") {
        const channel = this.channels.get(event.runId);
        if (channel === undefined) return;
        this.channels.delete(event.runId);
        channel.push(terminalEvent(event.runId, event.outcome));
        channel.end();
      }
    });
    this.process = new SessionProcess(options, this.core, this.logger, this.newId);
    const defaults = {
      model: options.model,
      effort: options.effort,
      permissionMode: options.permissionMode ?? "default",
    };
    this.queue = new PromptQueue(this.core, this.process, this.logger, defaults);
  }

  /** From system/init; the resumed id until the first turn confirms it. */
  get sessionId(): string | undefined {
    return this.core.sessionId;
  }

  get status(): SessionStatus {
    return this.core.currentStatus;
  }

  get turnState(): TurnStateName {
    return this.core.turn.state;
  }

  /** Spawns the process now instead of at the first prompt. */
  start(): void {
    this.process.ensureStarted();
  }

  subscribe(listener: SessionListener): () => void {
    return this.core.emitter.subscribe(listener);
  }

  /**
   * Sends one user message and yields the events of that run only, ending with exactly one
   * terminal event. Queued (state `queued`) while another foreground run is active; if an
   * autonomous run is active, it is interrupted and torn down first. Stopping the iteration
   * early cancels the run. `settings` (model, effort) apply from this prompt on; what it leaves
   * out is the session's default, switched back to if an earlier prompt asked for another.
   */
  stream(prompt: UserPrompt, settings: TurnSettings = {}): RunStream {
    const run = this.core.runs.create("foreground", "queued");
    const uuid = this.newId();
    run.userMessageUuid = uuid;
    this.core.owners.recordSend(uuid, run.id);
    const channel = new AsyncQueue<RunStreamEvent>(() => this.abandon(run.id));
    this.channels.set(run.id, channel);
    this.core.emitter.emit({
      type: "run_started",
      runId: run.id,
      origin: "foreground",
      promptUuid: uuid,
    });
    this.core.refreshStatus();
    if (this.process.unusable) {
      const reason = this.process.deadReason();
      this.core.endRun(run.id, { state: "error", reason }, "session unusable");
    } else {
      this.queue.enqueue(run, uuid, prompt, settings);
    }
    const iterate = () => channel[Symbol.asyncIterator]();
    return { runId: run.id, promptUuid: uuid, [Symbol.asyncIterator]: iterate };
  }

  /**
   * Delivers a message to a foreground run under way (steering, `steering.ts`): pushed with the
   * runtime's `priority` while its prompt is with the runtime, merged into its prompt while that
   * is still queued here. Its run's stream says `steered` once the runtime took it.
   */
  steer(runId: string, prompt: UserPrompt, priority: SteerPriority): SteerOutcome {
    return this.queue.steer(runId, this.newId(), prompt, priority);
  }

  /** The assembled timeline, all runs in order; a resumed session's earlier messages first. */
  async *streamHistory(): AsyncIterable<TimelineEntry> {
    yield* await this.process.wholeTimeline();
  }

  /**
   * Interrupts whatever run holds the runtime's turn, foreground or autonomous, and resolves when
   * those runs have ended. Prompts still queued are not touched: they start afterwards.
   */
  async interrupt(): Promise<void> {
    const targets = this.core.runs.active().filter((r) => r.state !== "queued");
    if (targets.length === 0) return;
    const ended = Promise.all(targets.map((r) => this.whenEnded(r.id)));
    await this.process.interruptRuns(targets, "interrupt requested");
    await ended;
  }

  /**
   * Resolves with the first non-running status, or `timeout`. The status is derived from the runs
   * at each event, so it never resolves `idle` while a run is active, even when called from a
   * listener before the `status` event announcing `running` went out.
   */
  waitForFinish(timeoutMs: number): Promise<FinishStatus> {
    const now = this.core.currentStatus;
    if (now !== "running") return Promise.resolve(now);
    return new Promise((resolve) => {
      const unsubscribe = this.core.emitter.subscribe(() => {
        const status = this.core.currentStatus;
        if (status !== "running") settle(status);
      });
      const timer = setTimeout(() => settle("timeout"), timeoutMs);
      function settle(status: FinishStatus): void {
        clearTimeout(timer);
        unsubscribe();
        resolve(status);
      }
    });
  }

  runs(): RunSnapshot[] {
    return this.core.runs.all().map((r) => {
      const snap: RunSnapshot = { id: r.id, origin: r.origin, state: r.state };
      if (r.outcome !== undefined) snap.outcome = r.outcome;
      return snap;
    });
  }

  /**
   * Follows a run already under way (an autonomous one: the runtime woke by itself): its events
   * from now on, ending with its terminal event. Call it from the `run_started` listener to miss
   * nothing. Undefined if the run is unknown or over. Stopping the iteration early cancels it.
   */
  follow(runId: string): RunStream | undefined {
    const run = this.core.runs.get(runId);
    if (run === undefined || !isActiveLifecycle(run.state) || this.channels.has(runId)) {
      return undefined;
    }
    const channel = new AsyncQueue<RunStreamEvent>(() => this.abandon(runId));
    this.channels.set(runId, channel);
    return { runId, [Symbol.asyncIterator]: () => channel[Symbol.asyncIterator]() };
  }

  /** The server refused this tool call before it ran: its result reads as a sandbox refusal. */
  recordRefusal = (id: string, v: SandboxViolation): void => void this.core.refusals.set(id, [v]);

  /**
   * The run whose tool call `toolUseId` is, for a hook or a permission request that names it;
   * waits until the pump has handled the frame carrying the tool use (see `whenToolUse`).
   */
  runOfToolUse(toolUseId: string, signal?: AbortSignal): Promise<string | undefined> {
    return this.core.owners.whenToolUse(toolUseId, signal);
  }

  /**
   * Stops one run without giving up its stream: a queued run ends `interrupted` at once, a sent
   * one is interrupted and its stream still ends with its terminal event (the teardown), so the
   * caller knows when the runtime's turn is free again.
   */
  cancelRun(runId: string, reason: string): void {
    const run = this.core.runs.get(runId);
    if (run === undefined || !isActiveLifecycle(run.state)) return;
    if (run.state === "queued") {
      this.core.endRun(runId, { state: "interrupted", text: "", reason }, reason);
    } else {
      void this.process.interruptRuns([run], reason);
    }
  }

  /** Files back as before the user message `uuid` (Claude Code's checkpoints: docs/control.md). */
  rewindFiles(uuid: string, dryRun: boolean): Promise<RewindFilesResult> {
    return this.process.rewindFiles(uuid, dryRun);
  }

  /** Live background tasks (a session with any should not be evicted). */
  backgroundTasks(): BackgroundTask[] {
    return this.core.tasks.live();
  }

  /** Whether a client's message is being served (or waits its turn) in this session. */
  get foregroundActive(): boolean {
    return this.core.runs.active().some((r) => r.origin === "foreground");
  }

  /**
   * Stops one background task (the runtime kills its process and reports it stopped). With a
   * `reason`, the server stopped it: the `background_task_finished` event carries it.
   */
  async stopBackgroundTask(taskId: string, reason?: string): Promise<void> {
    if (reason !== undefined) this.core.tasks.markStopping(taskId, reason);
    await this.process.stopTask(taskId);
  }

  /**
   * Ends the process; active and queued runs end as interrupted, with `reason` (e.g. "the server
   * is stopping") as what their tasks are told.
   */
  close(reason = SESSION_CLOSED): Promise<void> {
    return this.process.close(reason, (why) => this.queue.endAll(why));
  }

  /** The caller stopped reading its stream: the run is not wanted any more. */
  private abandon(runId: string): void {
    this.channels.delete(runId);
    this.cancelRun(runId, "abandoned by caller");
  }

  private whenEnded(runId: string): Promise<void> {
    return new Promise((resolve) => {
      const run = this.core.runs.get(runId);
      if (run === undefined || !isActiveLifecycle(run.state)) return resolve();
      const unsubscribe = this.core.emitter.subscribe((e) => {
        if (e.type === "run_ended" && e.runId === runId) {
          unsubscribe();
          resolve();
        }
      });
    });
  }
}

function terminalEvent(runId: string, outcome: RunOutcome): RunTerminalEvent {
  switch (outcome.state) {
    case "completed":
      return { kind: "run_completed", runId, text: outcome.text };
    case "interrupted":
      return { kind: "run_interrupted", runId, reason: outcome.reason, text: outcome.text };
    case "error":
      return outcome.cause === undefined
        ? { kind: "run_failed", runId, reason: outcome.reason }
        : { kind: "run_failed", runId, reason: outcome.reason, cause: outcome.cause };
  }
}
