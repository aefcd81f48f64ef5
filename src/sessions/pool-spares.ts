/**
 * The pool's side of `sessions.spares`: the spare set (`SpareSessions`) and the spares taken by
 * a new conversation whose task has its slot (`whenFree`) but has not leased yet (`acquire`).
 * A held spare is that conversation's: never handed to another, it ends if not used after all.
 */
import type { Logger } from "pino";
import type { ClaudeSession, SessionEvent } from "../claude/index.js";
import type { Timers } from "../common/timers.js";
import type { ConversationKey } from "../identity/conversation.js";
import type { PoolSlots } from "./machine-slots.js";
import type { Occupant } from "./process-slots.js";
import { WorkspaceActivity } from "./spare-quiet.js";
import {
  isSpareKey,
  SpareSessions,
  type SpareHandle,
  type SpareSessionsOptions,
} from "./spare-sessions.js";

/** What the pool is given to keep spares (the rest of `SpareSessionsOptions` is its own). */
export type PoolSparesOptions = Pick<
  SpareSessionsOptions,
  "wanted" | "maxIdleMs" | "create" | "site" | "fingerprint" | "watch" | "onChange" | "maxHoldMs"
> & {
  /** The folder a conversation's process runs in: a spare serves it only if it runs there. */
  readonly cwdOf: (key: ConversationKey) => string;
};

export type SpareClaim =
  | { readonly kind: "none" }
  | { readonly kind: "slot" }
  | { readonly kind: "session"; readonly session: ClaudeSession };

export interface PoolSparesHost {
  readonly slots: () => PoolSlots;
  /** Whether the conversation has a live session or a mapped one to resume. */
  readonly known: (key: ConversationKey) => boolean;
  readonly closed: () => boolean;
  readonly timers: Timers;
  readonly now: () => number;
  readonly logger: Logger;
}

export class PoolSpares {
  private readonly held = new Map<ConversationKey, SpareHandle>();
  /**
   * Conversations whose own new process (no spare) has its first turn still to get under way:
   * a spare started now would compete with them for the cores (a burst of new conversations).
   */
  private readonly starting = new Map<ConversationKey, ReturnType<Timers["setTimeout"]>>();
  private readonly spares: SpareSessions;
  /** The workspace's turns: a spare's start-up waits for a quiet moment between them. */
  private readonly activity: WorkspaceActivity;

  constructor(
    private readonly options: PoolSparesOptions,
    private readonly host: PoolSparesHost,
  ) {
    this.activity = new WorkspaceActivity({
      timers: host.timers,
      now: host.now,
      recheck: () => this.spares.fill(),
    });
    this.spares = new SpareSessions({
      ...options,
      room: () => !host.closed() && host.slots().hasRoom(),
      starting: () => this.starting.size > 0,
      // Asked only when a spare is wanted: a busy answer arms the recheck.
      quiet: () => this.spares.count >= options.wanted || this.activity.allows(),
      closing: {
        started: () => host.slots().closingStarted(),
        ended: () => host.slots().closingEnded(),
      },
      timers: host.timers,
      now: host.now,
      logger: host.logger,
    });
  }

  /** Processes: the spares and the held ones (each holds a slot). */
  get count(): number {
    return this.spares.count + this.held.size;
  }

  get counts(): { readonly ready: number; readonly taken: number } {
    return { ready: this.spares.ready, taken: this.spares.taken };
  }

  /** Held for `key`: the slots count the conversation as live. */
  holds(key: ConversationKey): boolean {
    return this.held.has(key);
  }

  occupants(): Occupant[] {
    return this.spares.occupants();
  }

  /** Closes the spare `key` if it is one; false for a conversation's key. */
  evict(key: ConversationKey, reason: string): boolean {
    if (!isSpareKey(key)) return false;
    this.spares.evict(key, reason);
    return true;
  }

  fill(): void {
    this.spares.fill();
  }

  /** Whether `whenFree(key)` can be served by a spare without waiting. */
  mightServe(key: ConversationKey): boolean {
    return this.eligible(key) && this.spares.ready > 0;
  }

  /** Takes a spare for `key`, held until its `acquire`; false if none serves it. */
  take(key: ConversationKey): boolean {
    if (!this.eligible(key)) return false;
    const handle = this.spares.take({ resumes: false, cwd: this.options.cwdOf(key) });
    if (handle === undefined) return false;
    this.held.set(key, handle);
    return true;
  }

  /**
   * What `key`'s new session does with a spare: none was held (`none`: it claims its reserved
   * slot); the held one serves it (`session`, bound to it now); or, since the session resumes
   * after all, the held one ends and its slot is the new session's (`slot`).
   */
  claim(key: ConversationKey, resumes: boolean): SpareClaim {
    const held = this.held.get(key);
    if (held === undefined || resumes) this.startingFor(key);
    if (held === undefined) return { kind: "none" };
    this.held.delete(key);
    if (resumes) {
      this.end(held);
      return { kind: "slot" };
    }
    held.bind(key);
    return { kind: "session", session: held.session };
  }

  /** Every event of every live session: a starting conversation's first turn under way. */
  onEvent(key: ConversationKey, event: SessionEvent): void {
    this.activity.onEvent(key, event);
    if (event.type === "run_event" || event.type === "run_ended" || event.type === "closed") {
      this.started(key);
    }
  }

  /** The task of `key` will not acquire after all: its held spare ends. False if none. */
  release(key: ConversationKey): boolean {
    const held = this.held.get(key);
    if (held === undefined) return false;
    this.held.delete(key);
    this.end(held);
    return true;
  }

  async close(reason: string): Promise<void> {
    this.activity.close();
    for (const timer of this.starting.values()) this.host.timers.clearTimeout(timer);
    this.starting.clear();
    const held = [...this.held.values()];
    this.held.clear();
    await Promise.all([...held.map((h) => h.session.close(reason)), this.spares.close()]);
  }

  /** `key` starts a process of its own: no spare starts until its first turn is under way. */
  private startingFor(key: ConversationKey): void {
    this.started(key, false);
    const bound = this.options.maxHoldMs ?? 10_000;
    this.starting.set(
      key,
      this.host.timers.setTimeout(() => this.started(key), bound),
    );
  }

  private started(key: ConversationKey, fill = true): void {
    const timer = this.starting.get(key);
    if (timer === undefined) return;
    this.host.timers.clearTimeout(timer);
    this.starting.delete(key);
    if (fill && this.starting.size === 0) this.spares.fill();
  }

  private eligible(key: ConversationKey): boolean {
    return !this.host.closed() && !this.held.has(key) && !this.host.known(key);
  }

  /** A spare once taken is a conversation's: never handed to another, it ends. */
  private end(held: SpareHandle): void {
    const slots = this.host.slots();
    slots.closingStarted();
    void held.session.close().finally(() => slots.closingEnded());
  }
}
