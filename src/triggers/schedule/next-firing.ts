import { Cron } from "croner";
import { CRON_MODE } from "../../config/cron.js";

/**
 * When a schedule fires (docs/triggers.md "Schedules"), from its cron expression and time zone
 * alone. Pure: every answer is a function of the spec and the dates given, never of the clock.
 */

export interface ScheduleSpec {
  readonly cron: string;
  /** IANA name; unset: UTC. */
  readonly timeZone?: string | undefined;
}

const jobOf = (spec: ScheduleSpec): Cron =>
  new Cron(spec.cron, { paused: true, mode: CRON_MODE, timezone: spec.timeZone ?? "UTC" });

/** The first scheduled time strictly after `after`, or undefined if it never fires again. */
export function nextFiring(spec: ScheduleSpec, after: Date): Date | undefined {
  return jobOf(spec).nextRun(after) ?? undefined;
}

/** The latest scheduled time at or before `at`, or undefined if there is none. */
function latestFiring(spec: ScheduleSpec, at: Date): Date | undefined {
  // croner looks strictly before a whole second: one second past `at`'s, floored, includes it.
  const reference = new Date(Math.floor(at.getTime() / 1000) * 1000 + 1000);
  const [latest] = jobOf(spec).previousRuns(1, reference);
  return latest !== undefined && latest.getTime() <= at.getTime() ? latest : undefined;
}

/** The firings due in (since, now]: how many (counted up to `cap`) and the latest. */
export interface Missed {
  readonly count: number;
  /** `count` stopped at the cap: there were at least that many. */
  readonly capped: boolean;
  readonly latest: Date | undefined;
}

/** How many firings fell in (since, now], and the latest of them. Pure. */
export function firingsBetween(spec: ScheduleSpec, since: Date, now: Date, cap = 1000): Missed {
  let count = 0;
  let at = nextFiring(spec, since);
  while (at !== undefined && at.getTime() <= now.getTime() && count < cap) {
    count++;
    at = nextFiring(spec, at);
  }
  if (count === 0) return { count, capped: false, latest: undefined };
  const capped = count === cap && at !== undefined && at.getTime() <= now.getTime();
  return { count, capped, latest: latestFiring(spec, now) };
}
