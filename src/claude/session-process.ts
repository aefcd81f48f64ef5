import type { RewindFilesResult, SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import type { Logger } from "pino";
import { AsyncQueue } from "./async-queue.js";
import type { SessionCore } from "./core.js";
import { defaultHistoryLoader } from "./history.js";
import { withTranscript, type HistoryMessage, type TimelineEntry } from "./timeline.js";
import { buildQueryOptions, type ClaudeSessionOptions } from "./options.js";
import { trackPermissions } from "./permissions.js";
import { errorText, QueryPump } from "./pump.js";
import { isActiveLifecycle, type Run } from "./run-tracker.js";
import { defaultQueryFactory, type QueryHandle } from "./sdk.js";
import { describeSwitch, type SettingsSwitch, type TurnSettings } from "./turn-settings.js";
import { defaultUsageBaselineLoader } from "./usage-baseline.js";

/** Why runs end when their session is closed and no one said why (idle, evicted). */
export const SESSION_CLOSED = "session closed";

/**
 * The one Claude Code process of a session, from its spawn at the first prompt to its end: the
 * streaming input it reads, the query pump over its output, what a resumed session reads first
 * (its history, its cost totals), the runtime's controls (interrupt, model and effort switches,
 * stopping a background task) and the shutdown. It schedules nothing: which prompt goes when is
 * the prompt queue's (prompt-queue.ts). The spawn options (a sandbox, a spare process) land here.
 */
export class SessionProcess {
  private readonly input = new AsyncQueue<SDKUserMessage>();
  /**
   * A resumed session's earlier messages, read into the timeline when first asked for
   * (`streamHistory`): a resume itself does not parse the conversation it continues.
   */
  private historyRead: Promise<void> | undefined;
  /** A resumed session's cost totals, read before its first prompt goes (see `usage.ts`). */
  private readonly usageBaseline: Promise<void> | undefined;
  private handle: QueryHandle | undefined;
  private pump: QueryPump | undefined;
  private pumpDone: Promise<void> = Promise.resolve();
  private closing: Promise<void> | undefined;
  private startError: string | undefined;
  /** Why `close()` was called: what the runs it ends report. */
  private closeReason = SESSION_CLOSED;
  /** The model and effort the live process runs with (set when it starts). */
  private settings: TurnSettings = {};

  constructor(
    private readonly options: ClaudeSessionOptions,
    private readonly core: SessionCore,
    private readonly logger: Logger,
    private readonly newId: () => string,
  ) {
    const resume = options.resume;
    if (resume !== undefined) core.adoptSessionId(resume);
    this.usageBaseline = resume === undefined ? undefined : this.loadUsageBaseline(resume);
  }

  /** Resolves once a resumed session's earlier messages are in the timeline. */
  history(): Promise<void> {
    const resume = this.options.resume;
    if (resume === undefined) return Promise.resolve();
    this.historyRead ??= this.loadHistory(resume);
    return this.historyRead;
  }

  /** The model and effort the live process runs with. */
  get current(): TurnSettings {
    return this.settings;
  }

  /** The process was spawned (it may have ended since). */
  get started(): boolean {
    return this.handle !== undefined;
  }

  /** Closing or ended: no prompt can be sent any more. */
  get unusable(): boolean {
    return this.closing !== undefined || this.core.processEnded;
  }

  /** Starts the process if it is not running, with `settings` (the first prompt's). */
  ensureStarted(settings?: TurnSettings): boolean {
    if (this.handle !== undefined) return true;
    if (this.unusable) return false;
    const canUseTool =
      this.options.canUseTool && trackPermissions(this.core, this.options.canUseTool, this.newId);
    // A sandbox overlay is not a spawn option: the first prompt's switch applies it.
    const { model, effort, permissionMode } = settings ?? {
      model: this.options.model,
      effort: this.options.effort,
      permissionMode: this.options.permissionMode,
    };
    this.settings = { model, effort, permissionMode: permissionMode ?? "default" };
    const options = buildQueryOptions(this.options, canUseTool, this.logger, this.settings);
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
    // The runtime changes its mode by itself too (an approved ExitPlanMode): what it reports wins.
    this.pump = new QueryPump(this.handle, this.core, (mode) => {
      this.settings = { ...this.settings, permissionMode: mode };
    });
    this.pumpDone = this.pump.run();
    this.logger.debug({ resume: this.options.resume }, "session: query started");
    return true;
  }

  /** What a run told it cannot start is told: why the process is closed or gone. */
  deadReason(): string {
    if (this.closing !== undefined) return this.closeReason;
    const why = this.startError ?? this.core.endReason ?? "Claude Code process has ended";
    return `${why}; re-create the session to resume`;
  }

  /** One user message into the process's streaming input. */
  send(message: SDKUserMessage): void {
    this.input.push(message);
  }

  /**
   * Switches the live process to another model, effort, sandbox overlay or permission mode
   * through the runtime's own controls (`setModel`, `applyFlagSettings`, `setPermissionMode`); the runtime applies both from its next turn on,
   * conversation and transcript kept. Throws what the runtime refused; the process keeps what it
   * had of the part not switched.
   */
  async switchTo(change: SettingsSwitch, runId: string): Promise<void> {
    const handle = this.handle;
    if (handle === undefined) return;
    if (change.model !== undefined) {
      await handle.setModel(change.model.to);
      this.settings = { ...this.settings, model: change.model.to };
    }
    if (change.effort !== undefined) {
      await handle.applyFlagSettings({ effortLevel: change.effort.to });
      this.settings = { ...this.settings, effort: change.effort.to ?? undefined };
    }
    if (change.sandbox !== undefined) {
      await handle.applyFlagSettings({ sandbox: change.sandbox.to });
      this.settings = { ...this.settings, sandbox: change.sandbox.to ?? undefined };
    }
    if (change.permissionMode !== undefined) {
      await handle.setPermissionMode(change.permissionMode.to);
      this.settings = { ...this.settings, permissionMode: change.permissionMode.to };
    }
    this.logger.debug({ runId, to: describeSwitch(change) }, "session: switched");
  }

  /** Interrupts the runtime's turn for `targets` (each once); their results end them. */
  async interruptRuns(targets: readonly Run[], reason: string): Promise<void> {
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

  /** The runtime's `rewindFiles`, on a started process (a resumed one reads its checkpoints). */
  async rewindFiles(userMessageId: string, dryRun: boolean): Promise<RewindFilesResult> {
    if (!this.ensureStarted() || this.handle?.rewindFiles === undefined) {
      return { canRewind: false, error: "this Claude Code process cannot rewind files" };
    }
    return this.handle.rewindFiles(userMessageId, { dryRun });
  }

  async stopTask(taskId: string): Promise<void> {
    await this.handle?.stopTask(taskId);
  }

  /**
   * Ends the process, once: `endQueued` first ends the prompts not sent yet, then the runs under
   * way end as the pump sees the process go, with `reason`.
   */
  close(reason: string, endQueued: (reason: string) => void): Promise<void> {
    this.closing ??= this.shutdown(reason, endQueued);
    return this.closing;
  }

  private async shutdown(reason: string, endQueued: (reason: string) => void): Promise<void> {
    this.closeReason = reason;
    endQueued(reason);
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

  /**
   * The whole conversation (`streamHistory`). A long session keeps only its latest entries in
   * memory (`KEPT_ENTRIES`): the rest is read back from its transcript then, as `history`
   * entries (no run id).
   */
  async wholeTimeline(): Promise<TimelineEntry[]> {
    const timeline = this.core.timeline;
    if (!timeline.trimmed) {
      await this.history();
      return timeline.snapshot();
    }
    const live = timeline.snapshot().filter((e) => e.source === "live");
    return withTranscript(await this.transcript(), live, this.logger);
  }

  /** The session's whole transcript as it is now (empty when it cannot be read). */
  private async transcript(): Promise<HistoryMessage[]> {
    const sessionId = this.core.sessionId ?? this.options.resume;
    if (sessionId === undefined) return [];
    const loader = this.options.historyLoader ?? defaultHistoryLoader;
    try {
      const where = { cwd: this.options.cwd, ...(this.options.env && { env: this.options.env }) };
      return await loader(sessionId, where);
    } catch (error) {
      this.logger.warn({ err: error, sessionId }, "session: transcript could not be read");
      return [];
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
