/**
 * Thrash under `sessions.maxLive`: conversations whose process the cap closed for another one,
 * and that come back (a resume: a Claude Code start and a transcript read, every turn when more
 * conversations rotate than the cap holds). Counted for `/metrics`, and told once a minute at
 * most in a warn line when it happens often, so an operator learns the cap is too small.
 */
import type { Logger } from "pino";
import type { Clock } from "../common/timers.js";
import type { ConversationKey } from "../identity/conversation.js";

/** When to warn: more than `resumes` cap-caused resumes within `windowMs`; once per window. */
export interface ThrashPolicy {
  readonly resumes: number;
  readonly windowMs: number;
}

/** A few per minute is a cap doing its job; every turn of a rotation is not. */
export const THRASH_POLICY: ThrashPolicy = { resumes: 5, windowMs: 60_000 };

export interface ThrashState {
  /** When the cap-caused resumes still in the window happened (ms), oldest first. */
  readonly recent: readonly number[];
  readonly warnedAt: number | undefined;
}

export const NO_THRASH: ThrashState = { recent: [], warnedAt: undefined };

/** One more cap-caused resume at `now`: the state after it, and whether to warn now. Pure. */
export function afterCapResume(
  state: ThrashState,
  now: number,
  policy: ThrashPolicy,
): { state: ThrashState; warn: boolean } {
  const recent = [...state.recent.filter((t) => now - t < policy.windowMs), now];
  const quiet = state.warnedAt === undefined || now - state.warnedAt >= policy.windowMs;
  const warn = recent.length > policy.resumes && quiet;
  return { state: { recent, warnedAt: warn ? now : state.warnedAt }, warn };
}

/** Conversations remembered as closed by the cap, until they come back (oldest forgotten first). */
const REMEMBERED = 10_000;

export interface CapTurnover {
  /** Conversations' processes closed to stay under the cap. */
  readonly evictions: number;
  /** Sessions resumed for a conversation the cap had closed. */
  readonly resumes: number;
}

export class CapThrash {
  private readonly closed = new Set<ConversationKey>();
  private state = NO_THRASH;
  private evictions = 0;
  private resumes = 0;

  constructor(
    private readonly o: {
      readonly maxLive: number;
      readonly clock: Clock;
      readonly logger: Logger;
      readonly policy?: ThrashPolicy;
    },
  ) {}

  get counts(): CapTurnover {
    return { evictions: this.evictions, resumes: this.resumes };
  }

  /** The cap closed the conversation's idle process for another conversation. */
  evicted(key: ConversationKey): void {
    this.evictions++;
    this.closed.delete(key);
    this.closed.add(key);
    if (this.closed.size > REMEMBERED) {
      const oldest = this.closed.values().next();
      if (oldest.done !== true) this.closed.delete(oldest.value);
    }
  }

  /** A session was created for `key`; `resumed`: it resumes the conversation's session. */
  created(key: ConversationKey, resumed: boolean): void {
    if (!this.closed.delete(key) || !resumed) return;
    this.resumes++;
    const policy = this.o.policy ?? THRASH_POLICY;
    const next = afterCapResume(this.state, this.o.clock.now(), policy);
    this.state = next.state;
    if (!next.warn) return;
    this.o.logger.warn(
      {
        resumes: next.state.recent.length,
        windowSeconds: policy.windowMs / 1000,
        maxLive: this.o.maxLive,
      },
      "sessions.maxLive is thrashing: conversations keep resuming after the cap closed their " +
        "process (each resume starts Claude Code again); raise sessions.maxLive if memory allows " +
        "(docs/operations.md, Sizing)",
    );
  }
}
