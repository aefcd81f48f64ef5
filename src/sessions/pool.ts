import type { Logger } from "pino";
import type { ClaudeSession, SessionEvent } from "../claude/index.js";
import type { SessionMap } from "../store/session-map.js";
import { realTimers, type Timers } from "../timers.js";

export type { Timers } from "../timers.js";

export interface SessionFactoryArgs {
  readonly contextId: string;
  /** The Claude session to resume, from the persisted map. */
  readonly resume: string | undefined;
}

export interface SessionPoolOptions {
  readonly sessionMap: SessionMap;
  readonly createSession: (args: SessionFactoryArgs) => ClaudeSession;
  /** An idle session (no run, no background task, no lease) is closed after this long. */
  readonly idleTimeoutMs: number;
  /** Idle sessions beyond this many are closed, least recently used first. */
  readonly maxLive: number;
  readonly logger: Logger;
  readonly timers?: Timers;
}

interface Entry {
  readonly contextId: string;
  readonly session: ClaudeSession;
  readonly unsubscribe: () => void;
  leases: number;
  lastUsed: number;
  idleTimer: unknown;
}

/** A lease keeps a session from being evicted while a task uses it. */
export interface SessionLease {
  readonly session: ClaudeSession;
  release(): void;
}

/**
 * One live `ClaudeSession` per A2A context. Sessions are created on demand (resuming the context's
 * Claude session from the persisted map), closed when idle too long or when too many are live, and
 * never closed while a run, a background task or a lease is active.
 */
export class SessionPool {
  private readonly entries = new Map<string, Entry>();
  private readonly timers: Timers;
  private clock = 0;
  private closed = false;

  constructor(private readonly options: SessionPoolOptions) {
    this.timers = options.timers ?? realTimers;
  }

  get liveCount(): number {
    return this.entries.size;
  }

  has(contextId: string): boolean {
    return this.entries.has(contextId);
  }

  /** The context's live session, if any (no lease taken). */
  peek(contextId: string): ClaudeSession | undefined {
    return this.entries.get(contextId)?.session;
  }

  acquire(contextId: string): SessionLease {
    if (this.closed) throw new Error("session pool is closed");
    const entry = this.entries.get(contextId) ?? this.create(contextId);
    entry.leases++;
    entry.lastUsed = ++this.clock;
    this.disarm(entry);
    // Trim only once the lease is taken: a new session is idle until then and would be the victim.
    this.enforceMaxLive();
    let released = false;
    return {
      session: entry.session,
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
    const all = [...this.entries.values()];
    await Promise.all(all.map((e) => this.evict(e, "server stopping")));
  }

  private create(contextId: string): Entry {
    const resume = this.options.sessionMap.get(contextId)?.sessionId;
    const session = this.options.createSession({ contextId, resume });
    const entry: Entry = {
      contextId,
      session,
      unsubscribe: () => undefined,
      leases: 0,
      lastUsed: ++this.clock,
      idleTimer: undefined,
    };
    const unsubscribe = session.subscribe((event) => this.onEvent(entry, event));
    Object.assign(entry, { unsubscribe });
    this.entries.set(contextId, entry);
    this.options.logger.debug({ contextId, resume, live: this.entries.size }, "session created");
    return entry;
  }

  private onEvent(entry: Entry, event: SessionEvent): void {
    switch (event.type) {
      case "session_id":
        if (this.options.sessionMap.get(entry.contextId)?.sessionId !== event.sessionId) {
          this.options.sessionMap.set(entry.contextId, event.sessionId).catch((err: unknown) => {
            this.options.logger.error(
              { err, contextId: entry.contextId },
              "session map write failed",
            );
          });
        }
        return;
      case "status":
      case "background_task_finished":
      case "run_ended":
        this.review(entry);
        return;
      case "closed":
        // The process ended (or was closed): the next task re-creates the session by resume.
        if (this.entries.get(entry.contextId) === entry) {
          this.disarm(entry);
          entry.unsubscribe();
          this.entries.delete(entry.contextId);
        }
        return;
      default:
        return;
    }
  }

  private isBusy(entry: Entry): boolean {
    const s = entry.session;
    return (
      entry.leases > 0 ||
      s.status === "running" ||
      s.status === "permission" ||
      s.backgroundTasks().length > 0
    );
  }

  /** Arms the idle timer of a session that has nothing to do, and trims the live set. */
  private review(entry: Entry): void {
    if (this.entries.get(entry.contextId) !== entry) return;
    this.disarm(entry);
    if (this.isBusy(entry)) return;
    entry.idleTimer = this.timers.setTimeout(() => {
      entry.idleTimer = undefined;
      if (!this.isBusy(entry)) void this.evict(entry, "idle timeout");
    }, this.options.idleTimeoutMs);
    this.enforceMaxLive();
  }

  private enforceMaxLive(): void {
    let excess = this.entries.size - this.options.maxLive;
    if (excess <= 0) return;
    const idle = [...this.entries.values()]
      .filter((e) => !this.isBusy(e))
      .sort((a, b) => a.lastUsed - b.lastUsed);
    for (const entry of idle) {
      if (excess-- <= 0) break;
      void this.evict(entry, "too many live sessions");
    }
  }

  private disarm(entry: Entry): void {
    if (entry.idleTimer !== undefined) this.timers.clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
  }

  private async evict(entry: Entry, reason: string): Promise<void> {
    if (this.entries.get(entry.contextId) !== entry) return;
    this.disarm(entry);
    entry.unsubscribe();
    this.entries.delete(entry.contextId);
    this.options.logger.debug({ contextId: entry.contextId, reason }, "session closed");
    try {
      await entry.session.close();
    } catch (err) {
      this.options.logger.warn({ err, contextId: entry.contextId }, "session close failed");
    }
  }
}
