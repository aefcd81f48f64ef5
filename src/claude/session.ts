// Longer than ~300 lines on purpose: this is the provider's whole public API (stream, follow,
// interrupt, cancel, close, history) and the prompt scheduler behind it, in one class so that
// every entry point checks the same closing/ended state. Its shared state lives in SessionCore
// (core.ts), routing in the pump (pump.ts), run bookkeeping in RunTracker (run-tracker.ts).
import { randomUUID, type UUID } from "node:crypto";
import type { SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import { pino, type Logger } from "pino";
import { AsyncQueue } from "./async-queue.js";
import type { BackgroundTask } from "./background-tasks.js";
import { SessionCore } from "./core.js";
import type { RunStreamEvent, RunTerminalEvent, SessionListener } from "./events.js";
import { defaultHistoryLoader } from "./history.js";
import { contentBlocks, textOf } from "./normalize.js";
import { buildQueryOptions, type ClaudeSessionOptions } from "./options.js";
import { trackPermissions } from "./permissions.js";
import { errorText, QueryPump } from "./pump.js";
import { isActiveLifecycle, type Run, type RunOutcome, type SessionStatus } from "./run-tracker.js";
import { defaultQueryFactory, type QueryHandle } from "./sdk.js";
import type { TimelineEntry } from "./timeline.js";
import type { TurnStateName } from "./turn-state.js";
import {
  describeSwitch,
  isNoSwitch,
  resolveSettings,
  settingsSwitch,
  type SettingsSwitch,
  type TurnSettings,
} from "./turn-settings.js";
import { defaultUsageBaselineLoader } from "./usage-baseline.js";

/** Why runs end when their session is closed and no one said why (idle, evicted). */
export const SESSION_CLOSED = "session closed";

export type UserPrompt = string | SDKUserMessage["message"]["content"];
export type FinishStatus = Exclude<SessionStatus, "running"> | "timeout";

/** The events of one foreground run; `runId` ties it to the session events. */
export interface RunStream extends AsyncIterable<RunStreamEvent> {
  readonly runId: string;
}

export interface RunSnapshot {
  id: string;
  origin: Run["origin"];
  state: Run["state"];
  outcome?: RunOutcome;
}

interface PendingPrompt {
  run: Run;
  uuid: string;
  prompt: UserPrompt;
  /** Resolved: the model and effort this prompt runs with. */
  settings: TurnSettings;
}

/**
 * One conversation: one long-lived Claude Code process in streaming-input mode, one foreground
 * run at a time, autonomous runs when the runtime wakes by itself.
 */
export class ClaudeSession {
  private readonly core: SessionCore;
  private readonly logger: Logger;
  private readonly input = new AsyncQueue<SDKUserMessage>();
  private readonly pending: PendingPrompt[] = [];
  private readonly channels = new Map<string, AsyncQueue<RunStreamEvent>>();
  private readonly history: Promise<void>;
  /** A resumed session's cost totals, read before its first prompt goes (see `usage.ts`). */
  private readonly usageBaseline: Promise<void> | undefined;
  private readonly newId: () => string;
  private handle: QueryHandle | undefined;
  private pump: QueryPump | undefined;
  private pumpDone: Promise<void> = Promise.resolve();
  private closing: Promise<void> | undefined;
  private startError: string | undefined;
  /** Why `close()` was called: what the runs it ends report. */
  private closeReason = SESSION_CLOSED;
  /** The model and effort the live process runs with (set when it starts). */
  private current: TurnSettings = {};
  /** A model or effort switch is under way: nothing is sent until it is done. */
  private switching = false;

  constructor(private readonly options: ClaudeSessionOptions) {
    this.logger = (options.logger ?? pino({ level: "silent" })).child({ component: "claude" });
    this.newId = options.newId ?? randomUUID;
    this.core = new SessionCore(this.logger, this.newId);
    this.core.attach({
      takeHandoff: () => this.takeHandoff(),
      onRunEnded: (run) => this.onRunEnded(run),
    });
    // A run's stream is fed from the session events, so it sees them in the one order they have.
    this.core.emitter.subscribe((event) => {
      if (event.type === "run_event" && !event.late) {
        this.channels.get(event.runId)?.push(event.event);
      } else if (event.type === "run_state" && event.from === "queued") {
        if (event.to === "awaiting_response") {
          this.channels.get(event.runId)?.push({ kind: "prompt_sent", runId: event.runId });
        }
      } else if (event.type === "run_ended") {
        const channel = this.channels.get(event.runId);
        if (channel === undefined) return;
        this.channels.delete(event.runId);
        channel.push(terminalEvent(event.runId, event.outcome));
        channel.end();
      }
    });
    if (options.resume !== undefined) this.core.adoptSessionId(options.resume);
    this.history =
      options.resume === undefined ? Promise.resolve() : this.loadHistory(options.resume);
    this.usageBaseline =
      options.resume === undefined ? undefined : this.loadUsageBaseline(options.resume);
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
    this.ensureStarted();
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
    this.core.emitter.emit({ type: "run_started", runId: run.id, origin: "foreground" });
    this.core.refreshStatus();
    if (this.closing !== undefined || this.core.processEnded) {
      this.core.endRun(run.id, { state: "error", reason: this.deadReason() }, "session unusable");
    } else {
      const defaults = { model: this.options.model, effort: this.options.effort };
      this.pending.push({ run, uuid, prompt, settings: resolveSettings(settings, defaults) });
      this.schedule();
    }
    return { runId: run.id, [Symbol.asyncIterator]: () => channel[Symbol.asyncIterator]() };
  }

  /** The assembled timeline, all runs in order; a resumed session's earlier messages first. */
  async *streamHistory(): AsyncIterable<TimelineEntry> {
    await this.history;
    yield* this.core.timeline.snapshot();
  }

  /**
   * Interrupts whatever run holds the runtime's turn, foreground or autonomous, and resolves when
   * those runs have ended. Prompts still queued are not touched: they start afterwards.
   */
  async interrupt(): Promise<void> {
    const targets = this.core.runs.active().filter((r) => r.state !== "queued");
    if (targets.length === 0) return;
    const ended = Promise.all(targets.map((r) => this.whenEnded(r.id)));
    await this.interruptRuns(targets, "interrupt requested");
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
      void this.interruptRuns([run], reason);
    }
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
    await this.handle?.stopTask(taskId);
  }

  /**
   * Ends the process; active and queued runs end as interrupted, with `reason` (e.g. "the server
   * is stopping") as what their tasks are told.
   */
  close(reason = SESSION_CLOSED): Promise<void> {
    this.closing ??= this.shutdown(reason);
    return this.closing;
  }

  private async shutdown(reason: string): Promise<void> {
    this.closeReason = reason;
    for (const item of this.pending.splice(0)) {
      const outcome = { state: "interrupted", text: "", reason } as const;
      this.core.endRun(item.run.id, outcome, reason);
    }
    this.pump?.markClosing(reason);
    this.input.end();
    if (this.handle === undefined) {
      this.core.processGone(undefined, false);
      this.core.emitter.emit({ type: "closed", reason });
      return;
    }
    try {
      this.handle.close();
    } catch (error) {
      this.logger.warn({ err: error }, "session: close failed");
    }
    await this.pumpDone;
  }

  /** Starts the process if it is not running, with `settings` (the first prompt's). */
  private ensureStarted(settings?: TurnSettings): boolean {
    if (this.handle !== undefined) return true;
    if (this.closing !== undefined || this.core.processEnded) return false;
    const canUseTool =
      this.options.canUseTool && trackPermissions(this.core, this.options.canUseTool, this.newId);
    // A sandbox overlay is not a spawn option: the first prompt's switch applies it.
    const { model, effort } = settings ?? {
      model: this.options.model,
      effort: this.options.effort,
    };
    this.current = { model, effort };
    const options = buildQueryOptions(this.options, canUseTool, this.logger, this.current);
    try {
      const factory = this.options.queryFactory ?? defaultQueryFactory;
      const baseline = this.usageBaseline;
      // The runtime answers nothing before its first prompt, so holding that prompt until the
      // baseline is known means no result is metered against the wrong totals.
      const prompt = baseline === undefined ? this.input : afterReady(baseline, this.input);
      this.handle = factory({ prompt, options });
    } catch (error) {
      this.logger.error({ err: error }, "session: starting Claude Code failed");
      this.startError = `Claude Code could not be started: ${errorText(error)}`;
      this.core.processGone(undefined, true);
      this.core.refreshStatus();
      return false;
    }
    this.pump = new QueryPump(this.handle, this.core);
    this.pumpDone = this.pump.run();
    this.logger.debug({ resume: this.options.resume }, "session: query started");
    return true;
  }

  private deadReason(): string {
    if (this.closing !== undefined) return this.closeReason;
    const why = this.startError ?? this.core.endReason ?? "Claude Code process has ended";
    return `${why}; re-create the session to resume`;
  }

  /** Starts the next queued prompt if the turn is free; never pushes while a turn runs. */
  private schedule(): void {
    const next = this.pending[0];
    if (next === undefined || this.core.foreground !== undefined || this.switching) return;
    if (this.closing !== undefined || this.core.processEnded) {
      for (const item of this.pending.splice(0)) {
        this.core.endRun(item.run.id, { state: "error", reason: this.deadReason() }, "unusable");
      }
      return;
    }
    switch (this.core.turn.state) {
      case "foreground":
        return;
      case "autonomous": {
        if (this.core.turn.handoffRequested) return;
        // Atomic autonomous → foreground: interrupt, await teardown (its result), then send.
        this.core.turn.requestHandoff();
        const autonomous = this.core.runs
          .active()
          .filter((r) => r.origin === "autonomous" && r.state !== "queued");
        void this.interruptRuns(autonomous, "foreground prompt waiting");
        return;
      }
      case "idle":
        this.send(next);
        return;
    }
  }

  private takeHandoff(): void {
    const next = this.pending[0];
    if (next === undefined || this.closing !== undefined || this.core.processEnded) {
      this.core.turn.transition("idle", "handoff target gone");
      return;
    }
    this.send(next);
  }

  private send(item: PendingPrompt): void {
    const core = this.core;
    if (!this.ensureStarted(item.settings)) {
      if (core.turn.state === "autonomous") core.turn.transition("idle", "process unusable");
      this.schedule();
      return;
    }
    const change = settingsSwitch(this.current, item.settings);
    if (!isNoSwitch(change)) {
      // A handed-off turn is given back: the prompt goes from idle once the switch is done.
      if (core.turn.state === "autonomous") core.turn.transition("idle", "switching settings");
      void this.switchSettings(item, change);
      return;
    }
    this.pending.shift();
    if (!core.turn.transition("foreground", "prompt sent").ok) {
      this.pending.unshift(item);
      return;
    }
    core.foregroundSent(item.run.id, item.uuid);
    core.runs.transition(item.run.id, "awaiting_response", "prompt sent");
    const content = item.prompt;
    core.timeline.addUserPrompt(item.uuid, textOf(contentBlocks(content)), item.run.id);
    this.logger.debug({ runId: item.run.id, uuid: item.uuid }, "session: prompt sent");
    this.input.push({
      type: "user",
      message: { role: "user", content },
      parent_tool_use_id: null,
      uuid: item.uuid as UUID,
    });
  }

  /**
   * Switches the live process to another model or effort through the runtime's own controls
   * (`setModel`, `applyFlagSettings`), before the prompt that asked for it is sent. The runtime
   * applies both from its next turn on, conversation and transcript kept. If the runtime refuses,
   * that prompt's run fails saying so and the process keeps what it had.
   */
  private async switchSettings(item: PendingPrompt, change: SettingsSwitch): Promise<void> {
    const handle = this.handle;
    if (handle === undefined) return;
    this.switching = true;
    try {
      if (change.model !== undefined) {
        await handle.setModel(change.model.to);
        this.current = { ...this.current, model: change.model.to };
      }
      if (change.effort !== undefined) {
        await handle.applyFlagSettings({ effortLevel: change.effort.to });
        this.current = { ...this.current, effort: change.effort.to ?? undefined };
      }
      if (change.sandbox !== undefined) {
        await handle.applyFlagSettings({ sandbox: change.sandbox.to });
        this.current = { ...this.current, sandbox: change.sandbox.to ?? undefined };
      }
      this.logger.debug({ runId: item.run.id, to: describeSwitch(change) }, "session: switched");
    } catch (error) {
      const reason = `Claude Code could not switch to ${describeSwitch(change)}: ${errorText(error)}`;
      this.logger.warn({ err: error, runId: item.run.id }, "session: switch failed");
      if (isActiveLifecycle(item.run.state)) {
        this.core.endRun(item.run.id, { state: "error", reason }, "settings switch failed");
      }
    } finally {
      this.switching = false;
      this.schedule();
    }
  }

  private onRunEnded(run: Run): void {
    const index = this.pending.findIndex((p) => p.run.id === run.id);
    if (index >= 0) this.pending.splice(index, 1);
    this.schedule();
  }

  /** The caller stopped reading its stream: the run is not wanted any more. */
  private abandon(runId: string): void {
    this.channels.delete(runId);
    this.cancelRun(runId, "abandoned by caller");
  }

  private async interruptRuns(targets: readonly Run[], reason: string): Promise<void> {
    let needed = false;
    for (const run of targets) {
      if (run.interruptRequested || !isActiveLifecycle(run.state)) continue;
      run.interruptRequested = true;
      needed = true;
      if (run.state === "awaiting_response" || run.state === "streaming") {
        this.core.runs.transition(run.id, "finalizing", reason);
      }
    }
    if (!needed || this.handle === undefined) return;
    this.logger.debug({ runs: targets.map((r) => r.id), reason }, "session: interrupting");
    try {
      await this.handle.interrupt();
    } catch (error) {
      // The result (or the end of the stream) still ends the runs.
      this.logger.warn({ err: error }, "session: interrupt request failed");
    }
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

  private async loadUsageBaseline(sessionId: string): Promise<void> {
    const loader = this.options.usageBaselineLoader ?? defaultUsageBaselineLoader;
    try {
      const where = { cwd: this.options.cwd, ...(this.options.env && { env: this.options.env }) };
      const totals = await loader(sessionId, where);
      if (totals !== undefined) this.core.usage.startFrom(totals);
    } catch (error) {
      // Then the first run after the resume also counts what the runtime had saved before.
      this.logger.warn({ err: error, sessionId }, "session: resumed cost totals could not be read");
    }
  }

  private async loadHistory(sessionId: string): Promise<void> {
    const loader = this.options.historyLoader ?? defaultHistoryLoader;
    try {
      const where = { cwd: this.options.cwd, ...(this.options.env && { env: this.options.env }) };
      this.core.timeline.seedHistory(await loader(sessionId, where));
    } catch (error) {
      this.logger.warn({ err: error, sessionId }, "session: resumed history could not be read");
    }
  }
}

async function* afterReady<T>(ready: Promise<void>, items: AsyncIterable<T>): AsyncIterable<T> {
  await ready;
  yield* items;
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
