/**
 * How a conversation's next session starts (pure): resumed as mapped, at a rewind's or fork's
 * start point, before a prompt the model API rejected, or fresh.
 */
import type { StartPoint } from "../store/session-map.js";
import { TEXT } from "../contract/texts.js";

/** A conversation's mapped Claude session could not be resumed: its next session starts fresh. */
export interface SessionReset {
  readonly previousSessionId: string;
  readonly reason: string;
}

/** How a conversation's next session is created. */
export interface ResumePlan {
  /** The Claude session to resume; undefined: a fresh one. */
  readonly resume: string | undefined;
  /** Resume only up to this assistant message (the rejected prompt after it is dropped). */
  readonly resumeAt?: string;
  /** The resumed session is copied to a new one (a fork: `forkSession`); the source stays. */
  readonly fork?: boolean;
  /** It starts fresh instead of resuming the mapped session: its first lease says why. */
  readonly reset?: SessionReset;
  /**
   * A rewound branch has run: before a plain resume, the runtime's record must name it
   * (`SessionRecoveryOptions.recordBranch`); if nothing of it was written, the resume is at the
   * point after all (`after`).
   */
  readonly recordBranch?: { readonly prompt: string; readonly after: string };
  /** The mapping names a conversation that cannot go on: it is deleted. */
  readonly dropMapping: boolean;
}

export interface ResumeInput {
  /** The session the map names, if any. */
  readonly mapped: string | undefined;
  /** Where a rewind or fork had it start, kept in the map until a session started (a restart). */
  readonly point?: StartPoint | undefined;
  /** Its mapping was dropped as stale since its last session. */
  readonly reset: SessionReset | undefined;
  /** Its last session's last prompt was rejected by the model API. */
  readonly poisoned: boolean;
  /** The last assistant message before the rejected prompt, if the transcript has one. */
  readonly rewindPoint: (sessionId: string) => string | undefined;
}

/** How the next session of a conversation starts. Pure (`rewindPoint` is read only if poisoned). */
export function planResume(input: ResumeInput): ResumePlan {
  if (input.reset !== undefined)
    return { resume: undefined, reset: input.reset, dropMapping: false };
  const resume = input.mapped;
  const point = input.point;
  const chosen = point?.resumeAt !== undefined || point?.fork === true;
  if (resume !== undefined && chosen && point.branch === undefined) {
    const at = point.resumeAt;
    return {
      resume,
      ...(at !== undefined && { resumeAt: at }),
      ...(point.fork === true && { fork: true }),
      dropMapping: false,
    };
  }
  if (resume !== undefined && !input.poisoned && point?.branch !== undefined && point.resumeAt) {
    const recordBranch = { prompt: point.branch, after: point.resumeAt };
    return { resume, recordBranch, dropMapping: false };
  }
  if (resume === undefined || !input.poisoned) return { resume, dropMapping: false };
  const resumeAt = input.rewindPoint(resume);
  if (resumeAt !== undefined) return { resume, resumeAt, dropMapping: false };
  // Nothing before the rejected prompt: the conversation starts again.
  const reset = { previousSessionId: resume, reason: TEXT.firstPromptRejected };
  return { resume: undefined, reset, dropMapping: true };
}
