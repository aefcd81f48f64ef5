import type { RunTerminalEvent } from "../../claude/index.js";
import { TEXT } from "../../contract/texts.js";
import type { TaskOrigin } from "./environment.js";

/**
 * What the end of one of a task's runs means for the task. Pure: the run's terminal event, whether
 * the client's message caused the run, what kind of task it is, and the task's own budget's stop
 * text if its runs crossed it.
 */
export type RunEndFate =
  /** Nothing ends yet: done or waiting for background work (`answer`: the run's text, if any). */
  | { readonly kind: "settle"; readonly answer?: string }
  /** A wake of a client's task was interrupted: say so, then settle. */
  | { readonly kind: "wake_interrupted" }
  /** The task completes with what it has, saying why (an autonomous task's wake was cut short). */
  | { readonly kind: "complete"; readonly note: string }
  | { readonly kind: "fail"; readonly text: string }
  /** Its runs crossed the task's budget: it fails with the text, its background work stops. */
  | { readonly kind: "over_budget"; readonly text: string };

export interface RunEndContext {
  readonly foreground: boolean;
  readonly origin: TaskOrigin["kind"];
  /** `budgetStop` of the task's usage so far (undefined: within its budget, or none). */
  readonly overBudget: string | undefined;
  /**
   * The texts of the steering messages Claude never took (the control extension): a run that
   * did not complete does not run them, and the task's end says so (never dropped silently).
   */
  readonly untakenSteering?: readonly string[];
}

export function runEndFate(event: RunTerminalEvent, c: RunEndContext): RunEndFate {
  const fate = endFate(event, c);
  const untaken = c.untakenSteering ?? [];
  if (untaken.length === 0 || (fate.kind !== "fail" && fate.kind !== "over_budget")) return fate;
  return { ...fate, text: `${fate.text} ${TEXT.steeringNotTaken(untaken)}` };
}

function endFate(event: RunTerminalEvent, c: RunEndContext): RunEndFate {
  // A failed run fails the task anyway, with its own reason.
  if (event.kind !== "run_failed" && c.overBudget !== undefined) {
    return { kind: "over_budget", text: c.overBudget };
  }
  switch (event.kind) {
    case "run_completed":
      return event.text === "" ? { kind: "settle" } : { kind: "settle", answer: event.text };
    case "run_failed":
      return { kind: "fail", text: failedText(event) };
    case "run_interrupted":
      if (c.foreground) return { kind: "fail", text: TEXT.runInterrupted(event.reason) };
      // Only the session's handoff interrupts a wake we did not stop: a new message came.
      if (c.origin === "autonomous") return { kind: "complete", note: TEXT.wakeInterrupted };
      return { kind: "wake_interrupted" };
  }
}

/** What the client is told about a failed run (the runtime's own words go to the log). Pure. */
export function failedText(event: Extract<RunTerminalEvent, { kind: "run_failed" }>): string {
  switch (event.cause) {
    case "authentication_failed":
      return TEXT.notLoggedIn;
    case "prompt_rejected":
      return TEXT.promptRejected(event.reason);
    case undefined:
      return event.reason;
  }
}
