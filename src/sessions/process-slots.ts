/**
 * The process slots of `sessions.maxLive`: a hard cap on Claude Code processes, counting the live
 * sessions, those still shutting down and those promised to a conversation whose session is not
 * created yet. A conversation without a live session waits here, first come first served, while
 * the pool closes idle sessions for it; which ones is `evictionOrder`'s decision.
 */
import type { ConversationKey } from "../identity/conversation.js";

/** A live session, as the eviction choice sees it. */
export interface Occupant {
  readonly key: ConversationKey;
  /** A run, a permission prompt, background work or a lease: never closed to make room. */
  readonly busy: boolean;
  /** The pool's use counter when it was last leased or released: lower is less recently used. */
  readonly lastUsed: number;
  /** When it last became idle (ms). */
  readonly idleSince: number;
  /** A spare process no conversation has taken (`sessions.spares`): the first to go. */
  readonly spare?: boolean;
}

/**
 * Which idle sessions to close for other conversations, first victim first: the least recently
 * used, except that a session idle for less than `graceMs` (a conversation in the middle of an
 * exchange: its last turn just ended) comes after every other idle one. The grace only orders:
 * when nothing else is idle, such a session is closed all the same, at once, so a waiting
 * conversation never waits for an idle process to age. A busy session is never a victim. A spare
 * (a process started ahead for a conversation not yet there) goes before any conversation's. Pure.
 */
export function evictionOrder(
  occupants: readonly Occupant[],
  now: number,
  graceMs: number,
): ConversationKey[] {
  const inGrace = (o: Occupant) => now - o.idleSince < graceMs;
  return occupants
    .filter((o) => !o.busy)
    .sort(
      (a, b) =>
        Number(b.spare === true) - Number(a.spare === true) ||
        Number(inGrace(a)) - Number(inGrace(b)) ||
        a.lastUsed - b.lastUsed,
    )
    .map((o) => o.key);
}

/** The processes the cap counts. */
export interface SlotCounts {
  readonly live: number;
  /** Closed sessions whose process has not exited yet. */
  readonly closing: number;
  /** Slots kept for conversations `whenFree` let in that have not created their session yet. */
  readonly reserved: number;
  /** Processes outside the pool holding a slot (a delivery's reviewer: held-slot.ts). */
  readonly held: number;
}

/** Whether one more process fits under `maxLive`. Pure. */
export const fits = (c: SlotCounts, maxLive: number): boolean =>
  c.live + c.closing + c.reserved + c.held < maxLive;

/** The line and what can be closed for it, besides the counts. */
export interface SlotDemand extends SlotCounts {
  /** Live sessions that are idle: each can be closed for a waiting conversation at once. */
  readonly idle: number;
  /** Conversations already waiting: they get the slots that free first. */
  readonly waiting: number;
}

/**
 * Whether one more conversation must wait for a busy session to end (its task is `queued`):
 * only when the slots that free by themselves (free now, closing, idle sessions to close) are
 * all taken by the conversations ahead of it. Pure.
 */
export const waitsForBusy = (d: SlotDemand, maxLive: number): boolean =>
  d.live - d.idle + d.held + d.reserved + d.waiting >= maxLive;

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
  /** `sessions.minIdleBeforeEvictMs`: the grace of `evictionOrder`. */
  readonly graceMs: number;
  readonly now: () => number;
}

interface Waiter {
  readonly key: ConversationKey;
  resolve(): void;
  reject(reason: Error): void;
}

export class ProcessSlots {
  private closing = 0;
  private reserved = 0;
  private held = 0;
  private readonly waiters: Waiter[] = [];
  /** Set by `close`: why no slot will free any more. */
  private closedWith: string | undefined;

  constructor(
    private readonly options: ProcessSlotsOptions,
    private readonly host: SlotHost,
  ) {}

  /** Claude Code processes, counting those still shutting down. */
  get processCount(): number {
    return this.host.liveCount() + this.closing + this.held;
  }

  /** Conversations waiting in `whenFree`. */
  get waiting(): number {
    return this.waiters.length;
  }

  /** Conversations waiting in `whenFree` whose key passes `test` (one workspace's). */
  waitingWhere(test: (key: ConversationKey) => boolean): number {
    return this.waiters.filter((w) => test(w.key)).length;
  }

  /**
   * Resolves when `key`'s session fits under `maxLive`: at once for a live conversation or when
   * there is room; otherwise once a session has been closed for it (an idle one at once, see
   * `evictionOrder`; else the first to become idle) and its process is gone.
   * First come, first served. The slot is kept for the conversation's session (`claim`); a caller
   * that will not create it after all gives it back with `forgo()`. Aborting `signal` leaves the
   * line (the promise rejects); `close(reason)` sends everyone away with that reason.
   */
  whenFree(key: ConversationKey, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new Error("aborted"));
    if (this.closedWith !== undefined) return Promise.reject(new Error(this.closedWith));
    if (this.host.has(key) || this.fitsOneMore()) {
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

  /**
   * Whether `whenFree(key)` would wait for a busy session to end (every allowed process is busy).
   * Not when an idle one can be closed for it: that wait is only for a process to exit.
   */
  wouldWait(key: ConversationKey): boolean {
    if (this.closedWith !== undefined || this.host.has(key) || this.fitsOneMore()) return false;
    const occupants = this.host.occupants();
    const demand = {
      live: occupants.length,
      idle: occupants.filter((o) => !o.busy).length,
      closing: this.closing,
      reserved: this.reserved,
      held: this.held,
      waiting: this.waiters.length,
    };
    return waitsForBusy(demand, this.options.maxLive);
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

  /** A process outside the pool takes a slot (held-slot.ts): busy, until `holdEnded`. */
  holdStarted(): void {
    this.held++;
  }

  holdEnded(): void {
    this.held--;
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
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error(reason));
  }

  /** Closes idle sessions beyond the cap (`acquire` may go over it; an idle one then goes). */
  trim(): void {
    let excess = this.host.liveCount() - this.options.maxLive;
    if (excess <= 0) return;
    for (const key of this.victims()) {
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
      if (!this.fitsOneMore()) break;
      this.waiters.shift();
      this.reserved++;
      next.resolve();
    }
    this.makeRoom();
  }

  /** Whether one more process fits now, with nothing closed for it and nobody waiting. */
  hasRoom(): boolean {
    if (this.closedWith !== undefined || this.waiters.length > 0) return false;
    return this.fitsOneMore();
  }

  private fitsOneMore(): boolean {
    const { closing, reserved, held } = this;
    const counts = { live: this.host.liveCount(), closing, reserved, held };
    return fits(counts, this.options.maxLive);
  }

  private victims(): ConversationKey[] {
    return evictionOrder(this.host.occupants(), this.options.now(), this.options.graceMs);
  }

  /**
   * Closes idle sessions for the waiters, at once: one per waiter not yet covered by a slot that
   * is free or closing. Short of idle ones, the next session to become idle is closed then.
   */
  private makeRoom(): void {
    const { maxLive } = this.options;
    const taken = this.host.liveCount() + this.closing + this.reserved + this.held;
    let need = taken + this.waiters.length - maxLive;
    if (need <= 0) return;
    for (const key of this.victims()) {
      if (need-- <= 0) break;
      this.host.evict(key, "another conversation is waiting");
    }
  }
}
