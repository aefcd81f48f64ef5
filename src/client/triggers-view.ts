import type { FireAnswer, LastFiring, TriggersListing } from "../contract/triggers.js";
import { table } from "./table.js";
import { when } from "./task-view.js";

/** How `claude-a2a triggers` and `triggers fire` print what the server answered. Pure. */

const lastOf = (f: LastFiring | undefined): string =>
  f === undefined ? "never" : `${when(f.at)} ${f.outcome}${f.taskId ? ` ${f.taskId}` : ""}`;

/** One line per trigger: its name, kind, where or when it fires, its last and next firing. */
export function triggersTable(listing: TriggersListing): string {
  if (listing.triggers.length === 0) return "No triggers.\n";
  return table(
    ["NAME", "KIND", "FIRES", "NEXT", "LAST"],
    listing.triggers.map((t) => [
      t.name,
      t.kind,
      t.path ?? [t.cron, t.timeZone].filter(Boolean).join(" "),
      t.nextFiring === undefined ? "-" : when(t.nextFiring),
      lastOf(t.lastFiring),
    ]),
  );
}

/** The fire's answer: the task and the command that shows it, or the outcome and its reason. */
export function fireReport(answer: FireAnswer, follow: (taskId: string) => string): string {
  if (answer.taskId !== undefined) {
    const lead = answer.outcome === "started" ? "Started" : `${answer.outcome}:`;
    return `${lead} task ${answer.taskId}\nFollow it: ${follow(answer.taskId)}\n`;
  }
  return `${answer.outcome}: ${answer.reason ?? "nothing started"}\n`;
}
