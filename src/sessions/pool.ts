import type { Logger } from "pino";
import type { ClaudeSession, SessionEvent } from "../claude/index.js";
import type { ConversationKey } from "../identity/conversation.js";
import type { SessionMap } from "../store/session-map.js";
import { realTimers, type Timers } from "../timers.js";
import { backgroundClock, backgroundLimitReason } from "./background-limit.js";
import { SESSION_NOT_FOUND, type TranscriptCheck } from "./transcripts.js";

export type { Timers } from "../timers.js";

export interface SessionFactoryArgs {
  /** The conversation (caller + context) the session serves. */
  readonly key: ConversationKey;
  /** The Claude session to resume, from the persisted map. */
  readonly resume: string | undefined;
  /** Resume only up to this assistant message (a rejected prompt after it is dropped). */
  readonly resumeAt?: string;
}

export interface SessionPoolOptions {
  readonly sessionMap: SessionMap;
  readonly createSession: (args: SessionFactoryArgs) => ClaudeSession;
  /** An idle session (no run, no background task, no lease) is closed after this long. */
  readonly idleTimeoutMs: number;
  /**
   * Most Claude Code processes at once, counting those still shutting down. `acquire` never waits
   * (it may go over); `whenFree` waits until a new context's process fits under the cap.
   */
  readonly maxLive: number;
  /** A session is evicted for another context only once idle this long (ms). Default 0. */
  readonly minIdleBeforeEvictMs?: number;
  /**
   * A session busy only with background work this long (ms) has that work stopped, and can be
   * closed. 0 or unset: never.
   */
  readonly maxBackgroundMs?: number;
  /** The clock of `minIdleBeforeEvictMs` (ms). */
  readonly now?: () => number;
  readonly logger: Logger;
  readonly timers?: Timers;
  /** Sees every event of every live session (metrics). */
  readonly onSessionEvent?: (key: ConversationKey, event: SessionEvent) => void;
  /**
   * Where to resume a session whose last prompt the model API rejected (HTTP 400): the uuid of
   * the last assistant message before that prompt, or undefined to start fresh.
   */
  readonly rewindPoint?: (sessionId: string) => string | undefined;
  /** Whether a mapped session can still be resumed; without it every mapping is trusted. */
  readonly checkTranscript?: TranscriptCheck;
}

/** A context's mapped Claude session could not be resumed: its next session starts fresh. */
export interface SessionReset {
  readonly previousSessionId: string;
  readonly reason: string;
}

export const TRANSCRIPT_MISSING = "its transcript no longer exists";

/** What the runs of sessions closed at shutdown report (their tasks' last status says it). */
export const SERVER_STOPPING = "the server is stopping";

/** The status text of a task whose context starts a fresh Claude session (`session_reset`). */
export function sessionResetText(reset: SessionReset): string {
  return (
    `The previous Claude session of this context (${reset.previousSessionId}) cannot be ` +
    `resumed (${reset.reason}), so this task starts a fresh conversation: earlier messages of ` +
    `this context are not known to Claude.`
  );
}

interface Entry {
  readonly key: ConversationKey;
  readonly session: ClaudeSession;
  readonly unsubscribe: () => void;
  leases: number;
  lastUsed: number;
  idleTimer: unknown;
  /** Set when this session starts fresh instead of resuming; the first lease reports it. */
  reset: SessionReset | undefined;
  /** Its last prompt was rejected: replaced by a rewound session as soon as it is free. */
  poisoned: boolean;
  /** When it last became idle (`now()`); evictable for another context after minIdle. */
  idleSince: number;
  /** Runs while the session has nothing but background work (`sessions.maxBackgroundMs`). */
  backgroundTimer: unknown;
  /** Its background work ran out of time and was stopped: it no longer keeps the session busy. */
  backgroundExpired: boolean;
}

/** A lease keeps a session from being evicted while a task uses it. */
export interface SessionLease {
  readonly session: ClaudeSession;
  /**
   * Set on the first lease of a session that could not resume the context's mapped session:
   * the task says so in its first status (`session_reset`).
   */
  readonly reset?: SessionReset;
  release(): void;
}

/**
 * One live `ClaudeSession` per A2A context. Sessions are created on demand (resuming the context's
 * Claude session from the persisted map), closed when idle too long or when too many are live, and
 * never closed while a run, a background task or a lease is active.
 */
export class SessionPool {
  private readonly entries = new Map<ConversationKey, Entry>();
  /** Sessions closing: they still count against maxLive until their process is gone. */
  private closing = 0;
  /** Slots promised to `whenFree` callers whose session is not created yet. */
  private reserved = 0;
  private readonly waiters: {
    key: ConversationKey;
    resolve: () => void;
    reject: (reason: Error) => void;
  }[] = [];
  private recheck: unknown;
  /** Contexts whose last prompt the API rejected, until their next session is created. */
  private readonly poisoned = new Set<ConversationKey>();
  /** Contexts whose mapping was dropped as stale, until their next session is created. */
  private readonly resets = new Map<ConversationKey, SessionReset>();
  private readonly timers: Timers;
  private clock = 0;
  private closed = false;

  constructor(private readonly options: SessionPoolOptions) {
    this.timers = options.timers ?? realTimers;
  }

  get liveCount(): number {
    return this.entries.size;
  }

  /** Claude Code processes, counting those still shutting down. */
  get processCount(): number {
    return this.entries.size + this.closing;
  }

  /** Contexts waiting in `whenFree`. */
  get waiting(): number {
    return this.waiters.length;
  }

  /**
   * Resolves when `acquire(key)` fits under `maxLive`: at once for a live context or when
   * there is room; otherwise once the least recently used session idle for at least
   * `minIdleBeforeEvictMs` has been closed (and its process is gone). First come, first served.
   * The slot is kept for the next `acquire`; a caller that will not acquire after all gives it
   * back with `forgo()`. Aborting `signal` leaves the queue (the promise then rejects); so does
   * `closeAll()`, with the reason `SERVER_STOPPING`, as does a call once the pool is closed.
   */
  whenFree(key: ConversationKey, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new Error("aborted"));
    if (this.closed) return Promise.reject(new Error(SERVER_STOPPING));
    if (this.entries.has(key) || this.hasRoom()) {
      if (!this.entries.has(key)) this.reserved++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        key,
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        reject: (reason: Error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(reason);
        },
      };
      const onAbort = () => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        reject(new Error("aborted"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(waiter);
      this.makeRoom();
    });
  }

  /** Whether `whenFree(key)` would have to wait (every allowed process is busy). */
  wouldWait(key: ConversationKey): boolean {
    return !this.closed && !this.entries.has(key) && !this.hasRoom();
  }

  /** Gives back the slot `whenFree` kept for a caller that will not `acquire` after all. */
  forgo(): void {
    if (this.reserved > 0) this.reserved--;
    this.wake();
  }

  private hasRoom(): boolean {
    return this.entries.size + this.closing + this.reserved < this.options.maxLive;
  }

  /** Serves waiters while there is room. */
  private wake(): void {
    if (this.closed) return;
    for (;;) {
      const next = this.waiters[0];
      if (next === undefined) return;
      if (this.entries.has(next.key)) {
        this.waiters.shift();
        next.resolve();
        continue;
      }
      if (!this.hasRoom()) break;
      this.waiters.shift();
      this.reserved++;
      next.resolve();
    }
    this.makeRoom();
  }

  /** Evicts idle sessions for the waiters; re-checks when a young idle one comes of age. */
  private makeRoom(): void {
    let need =
      this.entries.size + this.closing + this.reserved + this.waiters.length - this.options.maxLive;
    if (need <= 0) return;
    const { eligible, nextAt } = this.victims();
    for (const entry of eligible) {
      if (need-- <= 0) break;
      void this.evict(entry, "another context is waiting");
    }
    if (need > 0 && nextAt !== undefined && this.recheck === undefined) {
      this.recheck = this.timers.setTimeout(
        () => {
          this.recheck = undefined;
          this.makeRoom();
        },
        Math.max(0, nextAt - this.now()),
      );
    }
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Idle sessions evictable now (least recently used first), and when the next one will be. */
  private victims(): { eligible: Entry[]; nextAt: number | undefined } {
    const minIdle = this.options.minIdleBeforeEvictMs ?? 0;
    const now = this.now();
    const idle = [...this.entries.values()]
      .filter((e) => !this.isBusy(e))
      .sort((a, b) => a.lastUsed - b.lastUsed);
    const eligible = idle.filter((e) => now - e.idleSince >= minIdle);
    const young = idle.filter((e) => now - e.idleSince < minIdle).map((e) => e.idleSince + minIdle);
    return { eligible, nextAt: young.length > 0 ? Math.min(...young) : undefined };
  }

  /** Background tasks running in live sessions. */
  backgroundTaskCount(): number {
    let n = 0;
    for (const entry of this.entries.values()) n += entry.session.backgroundTasks().length;
    return n;
  }

  has(key: ConversationKey): boolean {
    return this.entries.has(key);
  }

  /** The context's live session, if any (no lease taken). */
  peek(key: ConversationKey): ClaudeSession | undefined {
    return this.entries.get(key)?.session;
  }

  acquire(key: ConversationKey): SessionLease {
    if (this.closed) throw new Error("session pool is closed");
    const live = this.entries.get(key);
    // A poisoned session still closing is dropped here, so the new task gets a rewound one.
    if (live?.poisoned && !this.isBusy(live)) void this.evict(live, "prompt rejected");
    const entry = this.entries.get(key) ?? this.create(key);
    entry.leases++;
    entry.lastUsed = ++this.clock;
    this.disarm(entry);
    // Trim only once the lease is taken: a new session is idle until then and would be the victim.
    this.enforceMaxLive();
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
        entry.lastUsed = ++this.clock;
        this.review(entry);
      },
    };
  }

  /** Closes every live session (server shutdown). */
  async closeAll(): Promise<void> {
    this.closed = true;
    // No process will free for them: their tasks end instead of waiting for a slot.
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error(SERVER_STOPPING));
    const all = [...this.entries.values()];
    await Promise.all(all.map((e) => this.evict(e, SERVER_STOPPING)));
  }

  /**
   * Drops every mapping whose session can no longer be resumed (its transcript is gone: deleted
   * after `cleanupPeriodDays`, another HOME or CLAUDE_CONFIG_DIR, a moved workspace), so those
   * contexts start fresh instead of failing forever. Run at startup. Returns the contexts.
   */
  async dropStaleSessions(): Promise<ConversationKey[]> {
    const stale: ConversationKey[] = [];
    for (const [key, { sessionId }] of this.options.sessionMap.all()) {
      if (await this.dropIfStale(key, sessionId)) stale.push(key);
    }
    return stale;
  }

  /** Whether the mapping (still naming `sessionId`) was stale and has been dropped. */
  private async dropIfStale(key: ConversationKey, sessionId: string): Promise<boolean> {
    const check = this.options.checkTranscript;
    if (check === undefined) return false;
    let exists: boolean;
    try {
      exists = await check(sessionId);
    } catch (err) {
      this.options.logger.warn(
        { err, conversation: key },
        "could not check a session's transcript",
      );
      return false;
    }
    if (exists || this.options.sessionMap.get(key)?.sessionId !== sessionId) return false;
    if (this.entries.has(key)) return false;
    await this.markReset(key, { previousSessionId: sessionId, reason: TRANSCRIPT_MISSING });
    return true;
  }

  private async markReset(key: ConversationKey, reset: SessionReset): Promise<void> {
    this.resets.set(key, reset);
    this.options.logger.warn(
      { conversation: key, sessionId: reset.previousSessionId, reason: reset.reason },
      "session cannot be resumed; the context starts a fresh one",
    );
    await this.options.sessionMap.delete(key);
  }

  private create(key: ConversationKey): Entry {
    let reset = this.resets.get(key);
    this.resets.delete(key);
    let resume = reset ? undefined : this.options.sessionMap.get(key)?.sessionId;
    let resumeAt: string | undefined;
    if (resume !== undefined && this.poisoned.delete(key)) {
      resumeAt = this.options.rewindPoint?.(resume);
      if (resumeAt === undefined) {
        // Nothing before the rejected prompt: the conversation starts again.
        reset = { previousSessionId: resume, reason: "its first prompt was rejected" };
        resume = undefined;
        void this.options.sessionMap.delete(key).catch(() => undefined);
      }
      this.options.logger.warn(
        { conversation: key, sessionId: reset?.previousSessionId ?? resume, resumeAt },
        "the model API rejected the last prompt: resuming before it",
      );
    }
    if (this.reserved > 0) this.reserved--;
    const session = this.options.createSession({
      key,
      resume,
      ...(resumeAt !== undefined && { resumeAt }),
    });
    const entry: Entry = {
      key,
      session,
      unsubscribe: () => undefined,
      leases: 0,
      lastUsed: ++this.clock,
      idleTimer: undefined,
      reset,
      poisoned: false,
      idleSince: this.now(),
      backgroundTimer: undefined,
      backgroundExpired: false,
    };
    const unsubscribe = session.subscribe((event) => this.onEvent(entry, event));
    Object.assign(entry, { unsubscribe });
    this.entries.set(key, entry);
    this.options.logger.debug(
      { conversation: key, resume, live: this.entries.size },
      "session created",
    );
    return entry;
  }

  private onEvent(entry: Entry, event: SessionEvent): void {
    this.options.onSessionEvent?.(entry.key, event);
    switch (event.type) {
      case "session_id":
        if (this.options.sessionMap.get(entry.key)?.sessionId !== event.sessionId) {
          this.options.sessionMap.set(entry.key, event.sessionId).catch((err: unknown) => {
            this.options.logger.error({ err, conversation: entry.key }, "session map write failed");
          });
        }
        return;
      case "run_ended":
        if (event.outcome.state === "error" && event.outcome.cause === "prompt_rejected") {
          // The rejected prompt stays in this process's conversation: every later prompt would
          // be rejected too. Replace the session, resumed before that prompt, once it is free.
          entry.poisoned = true;
          this.poisoned.add(entry.key);
        }
        this.clockBackground(entry);
        this.review(entry);
        return;
      case "status":
      case "background_task_finished":
        this.clockBackground(entry);
        this.review(entry);
        return;
      case "run_started":
      case "background_task_started":
      case "background_task_attributed":
        this.clockBackground(entry);
        return;
      case "closed":
        // The process ended (or was closed): the next task re-creates the session by resume.
        if (this.entries.get(entry.key) === entry) {
          this.disarm(entry);
          this.stopBackgroundClock(entry);
          entry.unsubscribe();
          this.entries.delete(entry.key);
          this.wake();
        }
        this.afterClose(entry.key, event.reason);
        return;
      default:
        return;
    }
  }

  /**
   * A session that ended because the runtime could not find the session it resumed: drop the
   * mapping so the context's next session starts fresh (this task has failed with the runtime's
   * reason). Any other end: re-check the mapping, in case its transcript went away meanwhile.
   */
  private afterClose(key: ConversationKey, reason: string): void {
    const sessionId = this.options.sessionMap.get(key)?.sessionId;
    if (sessionId === undefined || this.closed) return;
    const done = SESSION_NOT_FOUND.test(reason)
      ? this.markReset(key, { previousSessionId: sessionId, reason: TRANSCRIPT_MISSING })
      : this.dropIfStale(key, sessionId);
    done.catch((err: unknown) => {
      this.options.logger.error({ err, conversation: key }, "dropping a stale session failed");
    });
  }

  private isBusy(entry: Entry): boolean {
    const s = entry.session;
    return (
      entry.leases > 0 ||
      s.status === "running" ||
      s.status === "permission" ||
      (!entry.backgroundExpired && s.backgroundTasks().length > 0)
    );
  }

  /** Starts, stops or keeps the session's `maxBackgroundMs` clock as its activity changes. */
  private clockBackground(entry: Entry): void {
    const limit = this.options.maxBackgroundMs ?? 0;
    if (limit <= 0 || this.entries.get(entry.key) !== entry) return;
    const activity = {
      background: entry.session.backgroundTasks().length,
      foreground: entry.session.foregroundActive,
    };
    // New work, or none left: a stop the limit made is behind it.
    if (activity.foreground || activity.background === 0) entry.backgroundExpired = false;
    switch (backgroundClock(entry.backgroundTimer !== undefined, activity)) {
      case "arm":
        entry.backgroundTimer = this.timers.setTimeout(() => {
          entry.backgroundTimer = undefined;
          this.expireBackground(entry, limit);
        }, limit);
        return;
      case "disarm":
        this.stopBackgroundClock(entry);
        return;
      case "keep":
        return;
    }
  }

  private stopBackgroundClock(entry: Entry): void {
    if (entry.backgroundTimer !== undefined) this.timers.clearTimeout(entry.backgroundTimer);
    entry.backgroundTimer = undefined;
  }

  /**
   * Its background work ran `limit` ms with nothing else going on: stop it (the runtime kills each
   * job and reports it stopped, with our reason on the owning task), and stop counting it as busy
   * at once, so the session can be closed even if the runtime never confirms.
   */
  private expireBackground(entry: Entry, limit: number): void {
    if (this.entries.get(entry.key) !== entry) return;
    const session = entry.session;
    const tasks = session.backgroundTasks();
    if (tasks.length === 0 || session.foregroundActive) return;
    entry.backgroundExpired = true;
    const reason = backgroundLimitReason(limit);
    this.options.logger.info(
      {
        conversation: entry.key,
        backgroundTasks: tasks.map((t) => t.taskId),
        maxBackgroundMs: limit,
      },
      "background work ran past sessions.maxBackgroundMs: stopping it",
    );
    for (const task of tasks) {
      session.stopBackgroundTask(task.taskId, reason).catch((err: unknown) => {
        this.options.logger.warn(
          { err, conversation: entry.key, backgroundTask: task.taskId },
          "stopping background work failed",
        );
      });
    }
    this.review(entry);
  }

  /** Arms the idle timer of a session that has nothing to do, and trims the live set. */
  private review(entry: Entry): void {
    if (this.entries.get(entry.key) !== entry) return;
    this.disarm(entry);
    if (this.isBusy(entry)) return;
    if (entry.poisoned) {
      void this.evict(entry, "prompt rejected");
      return;
    }
    entry.idleSince = this.now();
    entry.idleTimer = this.timers.setTimeout(() => {
      entry.idleTimer = undefined;
      if (!this.isBusy(entry)) void this.evict(entry, "idle timeout");
    }, this.options.idleTimeoutMs);
    this.enforceMaxLive();
    if (this.waiters.length > 0) this.makeRoom();
  }

  private enforceMaxLive(): void {
    let excess = this.entries.size - this.options.maxLive;
    if (excess <= 0) return;
    for (const entry of this.victims().eligible) {
      if (excess-- <= 0) break;
      void this.evict(entry, "too many live sessions");
    }
  }

  private disarm(entry: Entry): void {
    if (entry.idleTimer !== undefined) this.timers.clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
  }

  private async evict(entry: Entry, reason: string): Promise<void> {
    if (this.entries.get(entry.key) !== entry) return;
    this.disarm(entry);
    this.stopBackgroundClock(entry);
    entry.unsubscribe();
    this.entries.delete(entry.key);
    this.options.logger.debug({ conversation: entry.key, reason }, "session closed");
    this.closing++;
    try {
      // Only shutdown closes a busy session: its runs' tasks are told why.
      await entry.session.close(reason === SERVER_STOPPING ? SERVER_STOPPING : undefined);
    } catch (err) {
      this.options.logger.warn({ err, conversation: entry.key }, "session close failed");
    } finally {
      this.closing--;
      this.wake();
    }
  }
}
