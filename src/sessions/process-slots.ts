/**
 * The process slots of `sessions.maxLive`: a hard cap on Claude Code processes, counting the live
 * sessions, those still shutting down and those promised to a conversation whose session is not
 * created yet. A conversation without a live session waits here, first come first served, while
 * the pool closes idle sessions for it; which ones is `evictionChoice`'s decision.
 */
import type { ConversationKey } from "../identity/conversation.js";
import type { Timers } from "../timers.js";

/** A live session, as the eviction choice sees it. */
export interface Occupant {
  readonly key: ConversationKey;
  /** A run, a permission prompt, background work or a lease: never closed to make room. */
  readonly busy: boolean;
  /** The pool's use counter when it was last leased or released: lower is less recently used. */
  readonly lastUsed: number;
  /** When it last became idle (ms). */
  readonly idleSince: number;
}

export interface EvictionChoice {
  /** Idle sessions that may be closed now, least recently used first. */
  readonly eligible: readonly ConversationKey[];
  /** When the next idle one still too young becomes eligible (ms); undefined if none is. */
  readonly nextAt: number | undefined;
}

/**
 * Which idle sessions may be closed for another conversation now, and when the next one may:
 * only a session idle for at least `minIdleMs`, least recently used first. Pure.
 */
export function evictionChoice(
  occupants: readonly Occupant[],
  now: number,
  minIdleMs: number,
): EvictionChoice {
  const idle = occupants.filter((o) => !o.busy).sort((a, b) => a.lastUsed - b.lastUsed);
  const old = idle.filter((o) => now - o.idleSince >= minIdleMs);
  const young = idle
    .filter((o) => now - o.idleSince < minIdleMs)
    .map((o) => o.idleSince + minIdleMs);
  return {
    eligible: old.map((o) => o.key),
    nextAt: young.length > 0 ? Math.min(...young) : undefined,
  };
}

/** The processes the cap counts. */
export interface SlotCounts {
  readonly live: number;
  /** Closed sessions whose process has not exited yet. */
  readonly closing: number;
  /** Slots kept for conversations `whenFree` let in that have not created their session yet. */
  readonly reserved: number;
}

/** Whether one more process fits under `maxLive`. Pure. */
export const fits = (c: SlotCounts, maxLive: number): boolean =>
  c.live + c.closing + c.reserved < maxLive;

/** What the slots need of the pool. */
export interface SlotHost {
  liveCount(): number;
  has(key: ConversationKey): boolean;
  occupants(): Occupant[];
  /** Closes an idle session: it leaves the live set at once and calls `closingStarted`. */
  evict(key: ConversationKey, reason: string): void;
}

export interface ProcessSlotsOptions {
  readonly maxLive: number;
  readonly minIdleBeforeEvictMs: number;
  readonly now: () => number;
  readonly timers: Timers;
}

interface Waiter {
  readonly key: ConversationKey;
  resolve(): void;
  reject(reason: Error): void;
}

export class ProcessSlots {
  private closing = 0;
  private reserved = 0;
  private readonly waiters: Waiter[] = [];
  /** Set while a young idle session is awaited to come of age for a waiter. */
  private recheck: unknown;
  /** Set by `close`: why no slot will free any more. */
  private closedWith: string | undefined;

  constructor(
    private readonly options: ProcessSlotsOptions,
    private readonly host: SlotHost,
  ) {}

  /** Claude Code processes, counting those still shutting down. */
  get processCount(): number {
    return this.host.liveCount() + this.closing;
  }

  /** Conversations waiting in `whenFree`. */
  get waiting(): number {
    return this.waiters.length;
  }

  /**
   * Resolves when `key`'s session fits under `maxLive`: at once for a live conversation or when
   * there is room; otherwise once an idle session has been closed for it and its process is gone.
   * First come, first served. The slot is kept for the conversation's session (`claim`); a caller
   * that will not create it after all gives it back with `forgo()`. Aborting `signal` leaves the
   * line (the promise rejects); `close(reason)` sends everyone away with that reason.
   */
  whenFree(key: ConversationKey, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new Error("aborted"));
    if (this.closedWith !== undefined) return Promise.reject(new Error(this.closedWith));
    if (this.host.has(key) || this.hasRoom()) {
      if (!this.host.has(key)) this.reserved++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
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

  /** Whether `whenFree(key)` would have to wait (every allowed process is taken). */
  wouldWait(key: ConversationKey): boolean {
    return this.closedWith === undefined && !this.host.has(key) && !this.hasRoom();
  }

  /** Gives back the slot `whenFree` kept for a caller that will not create its session. */
  forgo(): void {
    if (this.reserved > 0) this.reserved--;
    this.wake();
  }

  /** A session is being created: the slot kept for it, if any, is now the session's. */
  claim(): void {
    if (this.reserved > 0) this.reserved--;
  }

  /** A closed session's process is shutting down: it keeps its slot until `closingEnded`. */
  closingStarted(): void {
    this.closing++;
  }

  closingEnded(): void {
    this.closing--;
    this.wake();
  }

  /** A session became idle: trims the live set back under the cap and makes room for waiters. */
  idle(): void {
    this.trim();
    if (this.waiters.length > 0) this.makeRoom();
  }

  /** No slot will free any more (shutdown): every waiter, and every later call, gets `reason`. */
  close(reason: string): void {
    this.closedWith = reason;
    if (this.recheck !== undefined) this.options.timers.clearTimeout(this.recheck);
    this.recheck = undefined;
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error(reason));
  }

  /** Closes idle sessions beyond the cap (`acquire` may go over it; an idle one then goes). */
  trim(): void {
    let excess = this.host.liveCount() - this.options.maxLive;
    if (excess <= 0) return;
    for (const key of this.choice().eligible) {
      if (excess-- <= 0) break;
      this.host.evict(key, "too many live sessions");
    }
  }

  /** Serves waiters while there is room (a session left, a process exited, a slot came back). */
  wake(): void {
    if (this.closedWith !== undefined) return;
    for (;;) {
      const next = this.waiters[0];
      if (next === undefined) return;
      if (this.host.has(next.key)) {
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

  private hasRoom(): boolean {
    const counts = { live: this.host.liveCount(), closing: this.closing, reserved: this.reserved };
    return fits(counts, this.options.maxLive);
  }

  private choice(): EvictionChoice {
    const { now, minIdleBeforeEvictMs } = this.options;
    return evictionChoice(this.host.occupants(), now(), minIdleBeforeEvictMs);
  }

  /** Evicts idle sessions for the waiters; re-checks when a young idle one comes of age. */
  private makeRoom(): void {
    let need =
      this.host.liveCount() +
      this.closing +
      this.reserved +
      this.waiters.length -
      this.options.maxLive;
    if (need <= 0) return;
    const { eligible, nextAt } = this.choice();
    for (const key of eligible) {
      if (need-- <= 0) break;
      this.host.evict(key, "another conversation is waiting");
    }
    if (need > 0 && nextAt !== undefined && this.recheck === undefined) {
      this.recheck = this.options.timers.setTimeout(
        () => {
          this.recheck = undefined;
          this.makeRoom();
        },
        Math.max(0, nextAt - this.options.now()),
      );
    }
  }
}
