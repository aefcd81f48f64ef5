import type { ClaudeSession, SessionEvent } from "../claude/index.js";
import type { ConversationKey } from "../identity/conversation.js";
import { realClock, realTimers, type Timers } from "../common/timers.js";
import { BackgroundClock } from "./background-clock.js";
import { changesProcesses, LiveSession } from "./live-session.js";
import type { PoolSlots } from "./machine-slots.js";
import type { SessionPoolOptions } from "./pool-options.js";
import { ProcessSlots } from "./process-slots.js";
import { holdSlot } from "./held-slot.js";
import {
  rejectsEveryPrompt,
  SessionRecovery,
  type ResumePlan,
  type SessionReset,
} from "./recovery.js";
import type { SweepProgress } from "./stale-sweep.js";
import { PoolSpares } from "./pool-spares.js";
import { CapThrash, type CapTurnover } from "./cap-thrash.js";
import { TEXT } from "../contract/texts.js";

export type { Timers } from "../common/timers.js";

export type { SessionFactoryArgs, SessionPoolOptions } from "./pool-options.js";

/** What the runs of sessions closed at shutdown report (their tasks' last status says it). */
export const SERVER_STOPPING = TEXT.serverStopping;

/** A lease keeps a session from being evicted while a task uses it. */
export interface SessionLease {
  readonly session: ClaudeSession;
  /**
   * Set on the first lease of a session that could not resume the conversation's mapped session:
   * the task says so in its first status (`session_reset`).
   */
  readonly reset?: SessionReset;
  release(): void;
}

/**
 * One live `ClaudeSession` per conversation (a caller's context). Sessions are created on demand
 * (resuming the conversation's Claude session from the persisted map, as `SessionRecovery`
 * plans), closed when idle too long or when another conversation needs the process slot
 * (`ProcessSlots`), and never closed while a run, a background task or a lease is active.
 *
 * Why it is over 300 lines: the one owner of the live-session map; every entry point (acquire,
 * events, review, eviction, close) reads and writes it and its leases together. What decides is
 * beside it: the cap and eviction (process-slots.ts), stale mappings (recovery.ts), an entry's
 * timers and leases (live-session.ts), the background clock (background-limit.ts).
 */
export class SessionPool {
  private readonly entries = new Map<ConversationKey, LiveSession>();
  private readonly spares: PoolSpares | undefined;
  private readonly slots: PoolSlots;
  private readonly recovery: SessionRecovery;
  private readonly timers: Timers;
  private readonly now: () => number;
  private readonly thrash: CapThrash;
  private uses = 0;
  private closed = false;

  constructor(private readonly options: SessionPoolOptions) {
    this.timers = options.timers ?? realTimers;
    this.now = options.now ?? Date.now;
    this.thrash = new CapThrash({
      maxLive: options.maxLive,
      clock: options.clock ?? realClock,
      logger: options.logger,
    });
    const host = {
      // Spares are processes too: they hold slots, and are the first closed for a conversation.
      liveCount: () => this.entries.size + (this.spares?.count ?? 0),
      has: (key: ConversationKey) => this.entries.has(key) || (this.spares?.holds(key) ?? false),
      occupants: () => [
        ...(this.spares?.occupants() ?? []),
        ...[...this.entries.values()].map((e) => e.occupant),
      ],
      evict: (key: ConversationKey, reason: string) => {
        if (this.spares?.evict(key, reason)) return;
        const entry = this.entries.get(key);
        if (entry === undefined) return;
        // Only the slots call this: the cap closes the process for another conversation.
        this.thrash.evicted(key);
        void this.evict(entry, reason);
      },
    };
    this.slots =
      options.slots?.(host) ??
      new ProcessSlots(
        {
          maxLive: options.maxLive,
          graceMs: options.minIdleBeforeEvictMs ?? 0,
          now: this.now,
        },
        host,
      );
    this.recovery = new SessionRecovery({
      sessionMap: options.sessionMap,
      logger: options.logger,
      ...(options.checkTranscript && { checkTranscript: options.checkTranscript }),
      ...(options.rewindPoint && { rewindPoint: options.rewindPoint }),
      ...(options.recordBranch && { recordBranch: options.recordBranch }),
      isLive: (key) => this.entries.has(key),
    });
    const spares = options.spares;
    if (spares !== undefined && spares.wanted > 0) {
      this.spares = new PoolSpares(spares, {
        slots: () => this.slots,
        known: (key) => this.entries.has(key) || options.sessionMap.get(key) !== undefined,
        closed: () => this.closed,
        timers: this.timers,
        now: this.now,
        logger: options.logger.child({ module: "spares" }),
      });
    }
  }

  /** Spares ready, and taken since startup (`/metrics`, `/healthz`). */
  get spareCounts(): { readonly ready: number; readonly taken: number } {
    return this.spares?.counts ?? { ready: 0, taken: 0 };
  }

  /** Processes the cap closed, and resumes of their conversations since startup (`/metrics`). */
  get capTurnover(): CapTurnover {
    return this.thrash.counts;
  }

  /** Starts the spares wanted, as far as they fit (at startup; again when their site is built). */
  fillSpares(): void {
    this.spares?.fill();
  }

  /** Conversations with a live session (spares are not counted: see `spareCounts`). */
  get liveCount(): number {
    return this.entries.size;
  }

  /** Claude Code processes, counting those still shutting down. */
  get processCount(): number {
    return this.slots.processCount;
  }

  /** Conversations waiting in `whenFree`. */
  get waiting(): number {
    return this.slots.waiting;
  }

  /**
   * Resolves when `acquire(key)` fits under `maxLive` (`ProcessSlots.whenFree`); rejects with
   * `SERVER_STOPPING` once `closeAll()` has begun.
   */
  whenFree(key: ConversationKey, signal?: AbortSignal): Promise<void> {
    // Not swept yet: its mapping is checked first, so a stale one starts fresh as after the sweep.
    const first = this.entries.has(key) ? undefined : this.recovery.checkFirst(key);
    if (first !== undefined) return first.then(() => this.whenFreeNow(key, signal));
    return this.whenFreeNow(key, signal);
  }

  private whenFreeNow(key: ConversationKey, signal?: AbortSignal): Promise<void> {
    // A new conversation takes a spare's slot with its process: nothing to wait for.
    if (this.spares?.take(key)) return Promise.resolve();
    return this.slots.whenFree(key, signal);
  }

  /** Whether `whenFree(key)` would wait for a busy session to end (`ProcessSlots.wouldWait`). */
  wouldWait(key: ConversationKey): boolean {
    if (this.spares?.mightServe(key)) return false;
    return this.slots.wouldWait(key);
  }

  /** Gives back the slot `whenFree` kept for a caller that will not `acquire` after all. */
  forgo(key?: ConversationKey): void {
    if (key !== undefined && this.spares?.release(key)) return;
    this.slots.forgo();
  }

  /** A slot under `maxLive` for a process outside the pool (a reviewer's): held-slot.ts. */
  holdSlot(signal?: AbortSignal): Promise<() => void> {
    return holdSlot(this.slots, signal);
  }

  /** Background tasks running in live sessions. */
  backgroundTaskCount(): number {
    return [...this.entries.values()].reduce((n, e) => n + e.session.backgroundTasks().length, 0);
  }

  has(key: ConversationKey): boolean {
    return this.entries.has(key);
  }

  /** The conversation's live session, if any (no lease taken). */
  peek(key: ConversationKey): ClaudeSession | undefined {
    return this.entries.get(key)?.session;
  }

  acquire(key: ConversationKey): SessionLease {
    if (this.closed) throw new Error("session pool is closed");
    const live = this.entries.get(key);
    // A poisoned session still closing is dropped here, so the new task gets a rewound one.
    if (live?.poisoned && !live.busy) void this.evict(live, "prompt rejected");
    const entry = this.entries.get(key) ?? this.create(key);
    entry.leases++;
    entry.lastUsed = ++this.uses;
    entry.disarm();
    // Trim only once the lease is taken: a new session is idle until then and would be the victim.
    this.slots.trim();
    let released = false;
    const reset = entry.reset;
    entry.reset = undefined;
    return {
      session: entry.session,
      ...(reset && { reset }),
      release: () => {
        if (released) return;
        released = true;
        entry.leases--;
        entry.lastUsed = ++this.uses;
        this.review(entry);
      },
    };
  }

  /**
   * A rewind or a fork: the conversation's next session resumes `resume` at `resumeAt` (a new
   * session when `fork`; a fresh one without `resume`). Its live session, idle, is closed first.
   */
  async restartAt(key: ConversationKey, plan: Omit<ResumePlan, "dropMapping">): Promise<void> {
    const live = this.entries.get(key);
    if (live?.busy === true) throw new Error("the conversation's session is busy");
    if (live !== undefined) await this.evict(live, "rewind");
    // On disk before the files go back or the prompt goes: a restart meanwhile resumes there too.
    if (plan.resume === undefined) await this.options.sessionMap.delete(key);
    else await this.options.sessionMap.point(key, plan.resume, plan);
    this.recovery.choose(key, { ...plan, dropMapping: false });
  }

  /** Closes the conversation's live session if it is idle (its next use resumes it). */
  async closeIdle(key: ConversationKey): Promise<void> {
    const live = this.entries.get(key);
    if (live !== undefined && !live.busy) await this.evict(live, "transcript read");
  }

  /** Closes every live session (server shutdown). */
  async closeAll(): Promise<void> {
    this.closed = true;
    this.recovery.stop();
    // No process will free for them: their tasks end instead of waiting for a slot.
    this.slots.close(SERVER_STOPPING);
    const all = [...this.entries.values()];
    await Promise.all([
      ...all.map((e) => this.evict(e, SERVER_STOPPING)),
      this.spares?.close(SERVER_STOPPING),
    ]);
  }

  /** See `SessionRecovery.dropStaleSessions`: the startup sweep, whole. */
  dropStaleSessions(): Promise<ConversationKey[]> {
    return this.recovery.dropStaleSessions();
  }

  /** Takes the mappings the startup sweep will check: their first use checks them first. */
  prepareSweep(): void {
    this.recovery.prepareSweep();
  }

  /** Starts the startup sweep in the background: the server serves meanwhile. */
  sweepStaleSessions(): void {
    void this.recovery.dropStaleSessions();
  }

  /** How far the startup sweep is (`/healthz`'s `sessionSweep`). */
  get sweepProgress(): SweepProgress {
    return this.recovery.sweepProgress;
  }

  private create(key: ConversationKey): LiveSession {
    const { resume, resumeAt, reset, fork } = this.recovery.next(key);
    this.thrash.created(key, resume !== undefined);
    // A spare taken in `whenFree` holds the slot: nothing reserved to claim then.
    const spare = this.spares?.claim(key, resume !== undefined) ?? { kind: "none" };
    if (spare.kind === "none") this.slots.claim();
    const session =
      spare.kind === "session"
        ? spare.session
        : this.options.createSession({
            key,
            resume,
            ...(resumeAt !== undefined && { resumeAt }),
            ...(fork === true && { fork }),
          });
    const clock = new BackgroundClock({
      key,
      session,
      limitMs: this.options.maxBackgroundMs ?? 0,
      timers: this.timers,
      logger: this.options.logger,
      onExpired: () => this.review(entry),
    });
    const entry = new LiveSession(key, session, clock, this.timers, ++this.uses, this.now());
    entry.reset = reset;
    entry.fromSpare = spare.kind === "session";
    entry.listen(session.subscribe((event) => this.onEvent(entry, event)));
    this.entries.set(key, entry);
    this.options.logger.debug(
      { conversation: key, resume, live: this.entries.size },
      "session created",
    );
    return entry;
  }

  private onEvent(entry: LiveSession, event: SessionEvent): void {
    this.options.onSessionEvent?.(entry.key, event);
    if (changesProcesses(event.type, entry.fromSpare)) this.options.onProcessesChanged?.();
    this.spares?.onEvent(entry.key, event);
    const current = this.entries.get(entry.key) === entry;
    switch (event.type) {
      case "session_id":
        // A rewind's or fork's start point is spent once a session of the conversation runs.
        if (!this.options.sessionMap.names(entry.key, event.sessionId)) {
          this.options.sessionMap.set(entry.key, event.sessionId).catch((err: unknown) => {
            this.options.logger.error({ err, conversation: entry.key }, "session map write failed");
          });
        }
        return;
      case "run_ended":
        if (rejectsEveryPrompt(event.outcome)) {
          // The rejected prompt stays in this process's conversation: every later prompt would
          // be rejected too. Replace the session, resumed before that prompt, once it is free.
          entry.poisoned = true;
          this.recovery.poison(entry.key);
        }
        if (current) entry.clock.update();
        this.review(entry);
        return;
      case "status":
      case "background_task_finished":
        if (current) entry.clock.update();
        this.review(entry);
        return;
      case "run_started":
        // A rewind resumes its own session (no new id): its point is kept, naming its branch.
        if (current && event.promptUuid !== undefined)
          this.options.sessionMap.ran(entry.key, event.promptUuid).catch(() => undefined);
        if (current) entry.clock.update();
        return;
      case "background_task_started":
      case "background_task_attributed":
        if (current) entry.clock.update();
        return;
      case "closed":
        // The process ended (or was closed): the next task re-creates the session by resume.
        if (current) {
          this.forget(entry);
          this.slots.wake();
        }
        this.spares?.fill();
        this.recovery.afterClose(entry.key, event.reason);
        return;
      default:
        return;
    }
  }

  /** Arms the idle timer of a session that has nothing to do, and trims the live set. */
  private review(entry: LiveSession): void {
    if (this.entries.get(entry.key) !== entry) return;
    entry.disarm();
    if (entry.busy) return;
    if (entry.poisoned) {
      void this.evict(entry, "prompt rejected");
      return;
    }
    entry.idleSince = this.now();
    entry.armIdle(this.options.idleTimeoutMs, () => {
      if (!entry.busy) void this.evict(entry, "idle timeout");
    });
    this.slots.idle();
  }

  /** Takes the session out of the pool (it is closing, or its process has ended). */
  private forget(entry: LiveSession): void {
    entry.detach();
    this.entries.delete(entry.key);
  }

  private async evict(entry: LiveSession, reason: string): Promise<void> {
    if (this.entries.get(entry.key) !== entry) return;
    this.forget(entry);
    this.options.logger.debug({ conversation: entry.key, reason }, "session closed");
    this.slots.closingStarted();
    try {
      // Only shutdown closes a busy session: its runs' tasks are told why.
      await entry.session.close(reason === SERVER_STOPPING ? SERVER_STOPPING : undefined);
    } catch (err) {
      this.options.logger.warn({ err, conversation: entry.key }, "session close failed");
    } finally {
      this.slots.closingEnded();
    }
  }
}
