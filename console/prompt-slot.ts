/**
 * What the slot under the open task's timeline holds: its prompt (a question, a permission, a
 * plan to approve, each saying who asks: Claude, or a delegated peer by its name), the steering
 * box of a working task, a rewind or fork the reader started from an ended task, or nothing.
 * Each has a key: the slot is rebuilt only when the key changes, so a re-render of the timeline
 * keeps what is typed in it. Pure.
 */
import { TaskState, type Task } from "@a2a-js/sdk";
import { inputRequestOf, type InputRequest } from "./answers.js";
import { peerOf, planOf } from "./controls.js";
import { isTerminal } from "./format.js";
import { mergeAskOf, type MergeAsk } from "./merge-approval.js";

/** A rewind or fork the reader started from an ended task (the page's own, never the server's). */
export type Panel =
  | { readonly kind: "rewind"; readonly taskId: string; readonly phase: RewindPhase }
  | { readonly kind: "fork"; readonly taskId: string };

/** A rewind goes through its dry run first: checking, then its answer (or why there is none). */
export type RewindPhase =
  | { readonly step: "checking" }
  | { readonly step: "ready"; readonly dryRun: Task }
  | { readonly step: "failed"; readonly reason: string };

export type Slot =
  | { readonly kind: "none"; readonly key: undefined }
  | {
      readonly kind: "answer";
      readonly key: string;
      readonly request: InputRequest;
      /** The delegated peer that asks, by its configured name; undefined: Claude asks. */
      readonly peer: string | undefined;
    }
  | { readonly kind: "plan"; readonly key: string; readonly plan: string }
  | {
      readonly kind: "merge";
      readonly key: string;
      readonly ask: MergeAsk;
      /** Whether the viewer looks like an operator (merge-approval.ts `viewerIsOperator`). */
      readonly operator: boolean;
    }
  | { readonly kind: "steer"; readonly key: string }
  | { readonly kind: "panel"; readonly key: string; readonly panel: Panel };

const NONE: Slot = { kind: "none", key: undefined };

/**
 * The slot of `task`, the card offering steering or not, with the reader's `panel` if any;
 * `operator`: whether the viewer looks like an operator (what a merge approval says depends on it).
 */
export function slotOf(
  task: Task,
  steerOffered: boolean,
  panel: Panel | undefined,
  operator = false,
): Slot {
  const status = task.status;
  switch (status?.state) {
    case TaskState.TASK_STATE_INPUT_REQUIRED: {
      const key = `${task.id}:${status.timestamp ?? ""}:${JSON.stringify(status.message?.parts ?? [])}`;
      const plan = planOf(status.message);
      if (plan !== undefined) return { kind: "plan", key: `plan:${key}`, plan };
      const ask = mergeAskOf(status.message);
      if (ask !== undefined)
        return { kind: "merge", key: `merge:${operator ? "op:" : ""}${key}`, ask, operator };
      return {
        kind: "answer",
        key: `answer:${key}`,
        request: inputRequestOf(status.message),
        peer: peerOf(status.message),
      };
    }
    case TaskState.TASK_STATE_WORKING:
      return steerOffered ? { kind: "steer", key: `steer:${task.id}` } : NONE;
    default:
      if (panel === undefined || panel.taskId !== task.id || !isTerminal(status?.state))
        return NONE;
      return {
        kind: "panel",
        key: `${panel.kind}:${task.id}${panel.kind === "rewind" ? `:${panel.phase.step}` : ""}`,
        panel,
      };
  }
}
