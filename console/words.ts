/**
 * What the console says in everyday words instead of the protocol's: a conversation's title from
 * its first prompt, a status kind as what happened ("Asked you a question"), a task's outcome
 * ("Completed in 12 s · $0.004"). The kinds themselves stay in the task's details view. Pure.
 */
import { KIND } from "../src/contract/kinds.js";
import { TEXT } from "../src/contract/texts.js";
import { formatUsd, type TaskUsage } from "../src/contract/usage.js";

/** Markdown's marks dropped (`**`, backticks, heading and list marks): a summary line's text. */
export const plainOf = (markdown: string): string =>
  markdown
    .replace(/```[\w-]*\n?/g, "")
    .replace(/(\*\*|__|~~|`)/g, "")
    .replace(/^\s*([#>]+|[-*+]|\d+[.)])\s+/gm, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");

/** The first prompt, on one line, shortened to `max` characters with "…"; "" for none. */
export function titleOf(prompt: string | undefined, max = 60): string {
  const line = (prompt ?? "").replace(/\s+/g, " ").trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  // Cut at a word when one ends near the limit, else mid-word.
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** `850 ms`, `12 s`, `3 min 5 s`, `2 h 4 min`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 === 0 ? `${m} min` : `${m} min ${s % 60} s`;
  const hours = Math.floor(m / 60);
  return m % 60 === 0 ? `${hours} h` : `${hours} h ${m % 60} min`;
}

const OUTCOME: Record<string, string> = {
  completed: "Completed",
  failed: "Failed",
  canceled: "Canceled",
  rejected: "Rejected",
  "input-required": "Waiting for your answer",
  working: "Working",
  submitted: "Waiting to start",
  "auth-required": "Waiting for sign-in",
};

/** "Completed in 12 s · $0.004", "Waiting for your answer", "Failed"; the state's name else. */
export function outcomeLine(state: string, usage: TaskUsage | undefined): string {
  const word = OUTCOME[state] ?? state;
  if (usage === undefined) return word;
  const parts = [usage.durationMs > 0 ? `${word} in ${duration(usage.durationMs)}` : word];
  parts.push(formatUsd(usage.costUsd));
  return parts.join(" · ");
}

/** A status of the timeline in everyday words (the server's text where it already is one). */
export function statusWords(kind: string | undefined, state: string, text: string): string {
  switch (kind) {
    case KIND.askUserQuestion:
      return "Asked you a question";
    case KIND.permissionRequest:
      return text.startsWith("Claude wants to use")
        ? `Asked permission: ${text.replace(/^Claude wants/, "wants")}`
        : `Asked permission: ${text}`;
    case KIND.resumed:
      return text === TEXT.resumed ? "Went on with your answer" : text;
    case KIND.queued:
      return "Waiting for the conversation's previous task to end";
    case KIND.steered:
      return `You steered: ${text}`;
    case KIND.planApproval:
      return "Asked you to approve its plan";
    case KIND.mergeApproval:
      return "Asked you to approve the merge";
    case KIND.result:
      return text;
    case undefined:
      return text !== "" ? text : (OUTCOME[state] ?? state);
    default:
      return text;
  }
}
