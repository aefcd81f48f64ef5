/**
 * A session in the pool: the Claude session of one conversation with what the pool keeps about
 * it (its leases, when it was last used, its idle timer, its background clock), and whether it is
 * busy: nothing but shutdown closes it then.
 */
import type { ClaudeSession, SessionEvent } from "../claude/index.js";
import type { ConversationKey } from "../identity/conversation.js";
import type { Timers } from "../common/timers.js";
import type { BackgroundClock } from "./background-clock.js";
import type { Occupant } from "./process-slots.js";
import type { SessionReset } from "./recovery.js";

/**
 * Whether a session's event changes which Claude Code processes the server runs (what the pid
 * file of the orphan sweep lists): its first session id (its process has started), unless its
 * process was a spare, listed when that started; and its end. Pure.
 */
export function changesProcesses(event: SessionEvent["type"], fromSpare: boolean): boolean {
  return (event === "session_id" && !fromSpare) || event === "closed";
}

export class LiveSession {
  leases = 0;
  /** Its process was a spare (`sessions.spares`), started before the conversation came. */
  fromSpare = false;
  /** Set when this session starts fresh instead of resuming; the first lease reports it. */
  reset: SessionReset | undefined;
  /** Its last prompt was rejected: replaced by a rewound session as soon as it is free. */
  poisoned = false;
  /** When it last became idle (ms). */
  idleSince: number;
  private idleTimer: unknown;
  private unsubscribe: () => void = () => undefined;

  constructor(
    readonly key: ConversationKey,
    readonly session: ClaudeSession,
    readonly clock: BackgroundClock,
    private readonly timers: Timers,
    /** The pool's use counter at its last lease or release: lower is less recently used. */
    public lastUsed: number,
    now: number,
  ) {
    this.idleSince = now;
  }

  /** A lease, a run, a permission prompt, or background work the limit has not stopped. */
  get busy(): boolean {
    const s = this.session;
    return (
      this.leases > 0 ||
      s.status === "running" ||
      s.status === "permission" ||
      (!this.clock.expired && s.backgroundTasks().length > 0)
    );
  }

  get occupant(): Occupant {
    const { key, lastUsed, idleSince } = this;
    return { key, busy: this.busy, lastUsed, idleSince };
  }

  listen(unsubscribe: () => void): void {
    this.unsubscribe = unsubscribe;
  }

  /** Runs `onIdle` after `ms` unless disarmed first. */
  armIdle(ms: number, onIdle: () => void): void {
    this.disarm();
    this.idleTimer = this.timers.setTimeout(() => {
      this.idleTimer = undefined;
      onIdle();
    }, ms);
  }

  disarm(): void {
    if (this.idleTimer !== undefined) this.timers.clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  /** It leaves the pool: no timer, clock or listener of it is left. */
  detach(): void {
    this.disarm();
    this.clock.stop();
    this.unsubscribe();
  }
}
