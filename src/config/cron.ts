import { Cron } from "croner";

/**
 * A schedule's cron expression and time zone as croner reads them (docs/triggers.md
 * "Schedules"): five fields (minute first) or six (second first). Pure.
 */

/** Five fields, or six with seconds first; a seventh (years) is refused. */
export const CRON_MODE = "5-or-6-parts";

/** Why `timeZone` is not an IANA time zone this Node knows, or undefined. Pure. */
export function timeZoneProblem(timeZone: string): string | undefined {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return undefined;
  } catch {
    return `"${timeZone}" is not a time zone: use an IANA name such as "Europe/Paris" or "UTC"`;
  }
}

/** Why `cron` is not a usable expression, or undefined (the same in every time zone). Pure. */
export function cronProblem(cron: string): string | undefined {
  let job: Cron;
  try {
    job = new Cron(cron, { paused: true, mode: CRON_MODE, timezone: "UTC" });
  } catch (err) {
    const why = (err as Error).message.replace(/^CronPattern: /, "");
    return (
      `"${cron}" is not a cron expression (${why}); write five fields ("0 3 * * *": ` +
      `03:00 every day) or six with seconds first`
    );
  }
  // From a fixed date: the same answer on every start, for any expression without a year.
  if (job.nextRun(new Date(0)) === null) return `"${cron}" never fires (no such date)`;
  return undefined;
}
