/**
 * Session recovery: how a conversation's next session starts when its mapped Claude session
 * cannot simply be resumed. A mapping whose transcript is gone is dropped, so the conversation
 * starts fresh instead of failing forever, and its first task says so (`session_reset`); a
 * session whose last prompt the model API rejected is replaced by one resumed before that prompt.
 */
import type { Logger } from "pino";
import type { ConversationKey } from "../identity/conversation.js";
import type { SessionMap } from "../store/session-map.js";
import {
  SESSION_NOT_FOUND,
  type BranchEnd,
  type RunOutcome,
  type TranscriptCheck,
} from "../claude/index.js";
import { TEXT } from "../contract/texts.js";
import { StaleSweep, type SweepProgress } from "./stale-sweep.js";
import { planResume, type ResumePlan, type SessionReset } from "./resume-plan.js";

export { planResume, type ResumeInput, type ResumePlan, type SessionReset } from "./resume-plan.js";

export const TRANSCRIPT_MISSING = TEXT.transcriptMissing;

/** The status text of a task whose context starts a fresh Claude session (`session_reset`). */
export const sessionResetText = (reset: SessionReset): string =>
  TEXT.sessionReset(reset.previousSessionId, reset.reason);

/** A run that ended this way leaves a prompt in the conversation the API will always reject. */
export const rejectsEveryPrompt = (outcome: RunOutcome): boolean =>
  outcome.state === "error" && outcome.cause === "prompt_rejected";

export type CloseFollowUp = "reset" | "recheck" | "none";

/**
 * What a session's end means for its mapping. Pure. The runtime could not find the session it
 * resumed: drop the mapping (the task failed with its reason). Any other end: re-check it, in
 * case its transcript went away meanwhile. Nothing once the pool is closed.
 */
export function afterCloseFollowUp(
  reason: string,
  mapped: boolean,
  stopped: boolean,
): CloseFollowUp {
  if (!mapped || stopped) return "none";
  return SESSION_NOT_FOUND.test(reason) ? "reset" : "recheck";
}

export interface SessionRecoveryOptions {
  readonly sessionMap: SessionMap;
  readonly logger: Logger;
  /** Whether a mapped session can still be resumed; without it every mapping is trusted. */
  readonly checkTranscript?: TranscriptCheck;
  /** See `SessionPoolOptions.rewindPoint`. */
  readonly rewindPoint?: (sessionId: string, key: ConversationKey) => string | undefined;
  /** See `SessionPoolOptions.recordBranch`. */
  readonly recordBranch?: (sessionId: string, prompt: string, key: ConversationKey) => BranchEnd;
  /** Whether the conversation has a live session (its mapping is then in use: left alone). */
  readonly isLive: (key: ConversationKey) => boolean;
}

/** The marks kept between a conversation's sessions, and the map changes they lead to. */
export class SessionRecovery {
  /** Conversations whose last prompt the API rejected, until their next session is created. */
  private readonly poisoned = new Set<ConversationKey>();
  /** Conversations whose mapping was dropped as stale, until their next session is created. */
  private readonly resets = new Map<ConversationKey, SessionReset>();
  /** Where a rewind or a fork set the conversation's next session to start (one use). */
  private readonly chosen = new Map<ConversationKey, ResumePlan>();
  private stopped = false;
  private readonly sweep: StaleSweep;

  constructor(private readonly options: SessionRecoveryOptions) {
    this.sweep = new StaleSweep({
      map: options.sessionMap,
      exists: (sessionId, key) => this.exists(sessionId, key),
      isLive: (key) => options.isLive(key),
      dropped: (key, previousSessionId) =>
        this.noteReset(key, { previousSessionId, reason: TRANSCRIPT_MISSING }),
      stopped: () => this.stopped,
      failed: (err) => options.logger.error({ err }, "dropping stale sessions failed"),
    });
  }

  /** The conversation's next session starts as `plan` says (a rewind, a fork), whatever was. */
  choose(key: ConversationKey, plan: ResumePlan): void {
    this.poisoned.delete(key);
    this.resets.delete(key);
    this.chosen.set(key, plan);
  }

  /** How the conversation's next session starts; the marks it used are spent. */
  next(key: ConversationKey): ResumePlan {
    const chosen = this.chosen.get(key);
    if (chosen !== undefined) {
      this.chosen.delete(key);
      return chosen;
    }
    const reset = this.resets.get(key);
    this.resets.delete(key);
    const entry = reset ? undefined : this.options.sessionMap.get(key);
    const mapped = entry?.sessionId;
    // A mark without a mapping to rewind waits for one (as it always has).
    const poisoned = mapped !== undefined && this.poisoned.delete(key);
    const rewindPoint = (sessionId: string) => this.options.rewindPoint?.(sessionId, key);
    const plan = planResume({ mapped, point: entry, reset, poisoned, rewindPoint });
    if (plan.dropMapping) void this.options.sessionMap.delete(key).catch(() => undefined);
    if (plan.recordBranch !== undefined && mapped !== undefined) {
      return this.recordBranch(key, mapped, plan.recordBranch);
    }
    if (poisoned) {
      this.options.logger.warn(
        { conversation: key, sessionId: mapped, resumeAt: plan.resumeAt },
        "the model API rejected the last prompt: resuming before it",
      );
    }
    return plan;
  }

  /**
   * A plain resume of a rewound branch, once the runtime's record names it (written for it if
   * its process never did); the start point is then spent (a failure to write leaves the
   * runtime's own record, all a resume had before). Nothing of the branch written (its process
   * was killed before its prompt was stored): at the point, whose next run names the branch.
   */
  private recordBranch(
    key: ConversationKey,
    sessionId: string,
    { prompt, after }: { prompt: string; after: string },
  ): ResumePlan {
    let end: BranchEnd | undefined;
    try {
      end = this.options.recordBranch?.(sessionId, prompt, key);
    } catch (err) {
      this.options.logger.warn({ err, conversation: key }, "recording a rewound branch failed");
    }
    const map = this.options.sessionMap;
    if (end?.kind === "unwritten") {
      void map.point(key, sessionId, { resumeAt: after }).catch(() => undefined);
      return { resume: sessionId, resumeAt: after, dropMapping: false };
    }
    if (end?.kind === "unrecorded") {
      this.options.logger.warn(
        { conversation: key, sessionId, leaf: end.leaf },
        "the runtime had not recorded the rewound branch's end (its process was killed): recorded it",
      );
    }
    void map.spend(key).catch(() => undefined);
    return { resume: sessionId, dropMapping: false };
  }

  /** The session's last prompt was rejected: its next session resumes before it. */
  poison(key: ConversationKey): void {
    this.poisoned.add(key);
  }

  /** The pool is closed: sessions ending now change no mapping. */
  stop(): void {
    this.stopped = true;
  }

  /**
   * Drops every mapping whose transcript is gone (`cleanupPeriodDays`, another HOME or config
   * dir, a moved workspace): the startup sweep (`StaleSweep`), once. Returns their keys.
   */
  dropStaleSessions(): Promise<ConversationKey[]> {
    if (this.options.checkTranscript === undefined) return Promise.resolve([]);
    return this.sweep.run();
  }

  /** See `StaleSweep.prepare`. */
  prepareSweep(): void {
    if (this.options.checkTranscript !== undefined) this.sweep.prepare();
  }

  /** How far the startup sweep is (`/healthz`). */
  get sweepProgress(): SweepProgress {
    return this.sweep.progress;
  }

  /**
   * A conversation's session is about to be created: if the sweep has not checked its mapping
   * yet, it is checked now, on its own; if a batch of the sweep is checking it, that batch is
   * waited for (undefined: nothing to wait for).
   */
  checkFirst(key: ConversationKey): Promise<void> | undefined {
    // The sweep's batch is checking it now: its verdict, once written, is this one's.
    if (!this.sweep.claim(key)) return this.sweep.settled(key);
    const sessionId = this.options.sessionMap.get(key)?.sessionId;
    if (sessionId === undefined) return undefined;
    return this.dropIfStale(key, sessionId).then(() => undefined, this.dropFailed(key));
  }

  private dropFailed(key: ConversationKey) {
    return (err: unknown) => {
      this.options.logger.error({ err, conversation: key }, "dropping a stale session failed");
    };
  }

  /** A session of the conversation ended for `reason`. */
  afterClose(key: ConversationKey, reason: string): void {
    const sessionId = this.options.sessionMap.get(key)?.sessionId;
    const followUp = afterCloseFollowUp(reason, sessionId !== undefined, this.stopped);
    if (sessionId === undefined || followUp === "none") return;
    const done =
      followUp === "reset"
        ? this.markReset(key, { previousSessionId: sessionId, reason: TRANSCRIPT_MISSING })
        : this.dropIfStale(key, sessionId);
    done.catch(this.dropFailed(key));
  }

  /** Whether the mapping (still naming `sessionId`) was stale and has been dropped. */
  private async dropIfStale(key: ConversationKey, sessionId: string): Promise<boolean> {
    const exists = await this.exists(sessionId, key);
    if (exists !== false || this.options.sessionMap.get(key)?.sessionId !== sessionId) return false;
    if (this.options.isLive(key)) return false;
    await this.markReset(key, { previousSessionId: sessionId, reason: TRANSCRIPT_MISSING });
    return true;
  }

  /** Whether the session's transcript is there; undefined when it could not be checked. */
  private async exists(sessionId: string, key: ConversationKey): Promise<boolean | undefined> {
    const check = this.options.checkTranscript;
    if (check === undefined) return true;
    try {
      return await check(sessionId, key);
    } catch (err) {
      this.options.logger.warn(
        { err, conversation: key },
        "could not check a session's transcript",
      );
      return undefined;
    }
  }

  private async markReset(key: ConversationKey, reset: SessionReset): Promise<void> {
    this.noteReset(key, reset);
    await this.options.sessionMap.delete(key);
  }

  /** The conversation's next session starts fresh, and its first task says why. */
  private noteReset(key: ConversationKey, reset: SessionReset): void {
    this.resets.set(key, reset);
    this.options.logger.warn(
      { conversation: key, sessionId: reset.previousSessionId, reason: reset.reason },
      "session cannot be resumed; the context starts a fresh one",
    );
  }
}
