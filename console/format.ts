/**
 * How the console names things: task states, origins, ages, costs, short ids. Pure: no DOM.
 */
import { TaskState, type Task } from "@a2a-js/sdk";
import { AUTONOMOUS_ORIGIN } from "../src/contract/kinds.js";
import { formatUsd, usageOf } from "../src/contract/usage.js";

/** `working`, `input-required`, …: the state's name as docs/protocol.md and the terminal client say it. */
export function stateName(state: TaskState | undefined): string {
  switch (state) {
    case TaskState.TASK_STATE_SUBMITTED:
      return "submitted";
    case TaskState.TASK_STATE_WORKING:
      return "working";
    case TaskState.TASK_STATE_INPUT_REQUIRED:
      return "input-required";
    case TaskState.TASK_STATE_COMPLETED:
      return "completed";
    case TaskState.TASK_STATE_FAILED:
      return "failed";
    case TaskState.TASK_STATE_CANCELED:
      return "canceled";
    case TaskState.TASK_STATE_REJECTED:
      return "rejected";
    case TaskState.TASK_STATE_AUTH_REQUIRED:
      return "auth-required";
    case TaskState.TASK_STATE_UNSPECIFIED:
    case TaskState.UNRECOGNIZED:
    case undefined:
      return "unknown";
  }
}

/** A task that will publish nothing more (the SDK's terminal states). */
export function isTerminal(state: TaskState | undefined): boolean {
  return (
    state === TaskState.TASK_STATE_COMPLETED ||
    state === TaskState.TASK_STATE_FAILED ||
    state === TaskState.TASK_STATE_CANCELED ||
    state === TaskState.TASK_STATE_REJECTED
  );
}

/** `autonomous` for a task the server started for a wake no task owned, else `foreground`. */
export const originOf = (task: Pick<Task, "metadata">): "autonomous" | "foreground" =>
  task.metadata?.origin === AUTONOMOUS_ORIGIN ? "autonomous" : "foreground";

/** What the task cost (`metadata.usage`, on its final status), or undefined while unknown. */
export function costOf(task: Pick<Task, "metadata">): string | undefined {
  const usage = usageOf(task.metadata);
  return usage === undefined ? undefined : formatUsd(usage.costUsd);
}

/** `12 s`, `5 min`, `3 h`, `2 d` since `iso` (a status timestamp), at `now`. */
export function age(iso: string | undefined, now: number): string | undefined {
  if (iso === undefined || iso === "") return undefined;
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return undefined;
  const s = Math.max(0, Math.round((now - then) / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86_400)} d`;
}

/** The first 8 characters of an id: enough to tell tasks apart on screen. */
export const shortId = (id: string): string => (id.length > 8 ? id.slice(0, 8) : id);

/** The branch a task's work is on, where the server reports one (worktree isolation). */
export function branchOf(task: Pick<Task, "metadata">): string | undefined {
  const m = task.metadata;
  if (m === undefined) return undefined;
  if (typeof m.branch === "string") return m.branch;
  for (const value of Object.values(m)) {
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      const branch = (value as Record<string, unknown>).branch;
      if (typeof branch === "string") return branch;
    }
  }
  return undefined;
}

/**
 * The commit the server made of a task's changes (`metadata.worktree.commit`, with
 * `claude.isolation: "worktree"`), short, with how many files it changed; or why there is none
 * (`metadata.worktree.error`).
 */
export function commitOf(task: Pick<Task, "metadata">): string | undefined {
  const w = task.metadata?.worktree as
    { commit?: unknown; files?: unknown; error?: unknown } | undefined;
  // The end-of-task commit failed (a damaged repository): the task says why.
  if (typeof w?.error === "string") return `none: ${w.error}`;
  if (typeof w?.commit !== "string" || w.commit === "") return undefined;
  const files = Array.isArray(w.files)
    ? ` (${w.files.length} file${w.files.length === 1 ? "" : "s"})`
    : "";
  return `${w.commit.slice(0, 10)}${files}`;
}
