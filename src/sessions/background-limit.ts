import { TEXT } from "../contract/texts.js";

/**
 * `sessions.maxBackgroundMs`: a session kept busy only by background work (a dev server, a
 * watcher, a job that never ends) would hold a Claude Code process, and a slot of
 * `sessions.maxLive`, forever. The clock runs while the session has background work and no
 * client's message is being served; when it runs out the server stops that work.
 */

/** What a session is doing, as the background clock sees it. */
export interface SessionActivity {
  /** Live background tasks (the runtime's set, ambient ones left out). */
  readonly background: number;
  /** A client's message is being served or waits its turn in the session. */
  readonly foreground: boolean;
}

export type ClockAction = "arm" | "disarm" | "keep";

/**
 * Whether the clock starts, stops or carries on. A client's message stops it (the conversation
 * is in use: its background work is wanted); wakes the background work causes do not, or a job
 * that wakes Claude every minute would never be stopped. It restarts from zero after each
 * message, so the limit is "this long with nothing but background work".
 */
export function backgroundClock(armed: boolean, activity: SessionActivity): ClockAction {
  const backgroundOnly = activity.background > 0 && !activity.foreground;
  if (backgroundOnly) return armed ? "keep" : "arm";
  return armed ? "disarm" : "keep";
}

/** Why the server stopped the work: the text of the owning task's `background_stopped` status. */
export const backgroundLimitReason = TEXT.backgroundLimit;
