import { TaskState } from "@a2a-js/sdk";

/**
 * How A2A task states group, once for the server, the stores and the terminal client: a terminal
 * task takes no further event; a parked one waits for its client (input or auth required).
 */
export const TERMINAL_STATES = [
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
] as const;

export const PARKED_STATES = [
  TaskState.TASK_STATE_INPUT_REQUIRED,
  TaskState.TASK_STATE_AUTH_REQUIRED,
] as const;

export const UNFINISHED_STATES = [
  TaskState.TASK_STATE_SUBMITTED,
  TaskState.TASK_STATE_WORKING,
  ...PARKED_STATES,
] as const;

const TERMINAL = new Set<TaskState>(TERMINAL_STATES);
const PARKED = new Set<TaskState>(PARKED_STATES);

export const isTerminalState = (state: TaskState | undefined): boolean =>
  state !== undefined && TERMINAL.has(state);

export const isParkedState = (state: TaskState | undefined): boolean =>
  state !== undefined && PARKED.has(state);

/**
 * A task state as the word error texts and docs use (`completed`, `input-required`; absent:
 * `unspecified`), never its wire number: TaskState is a numeric enum in the SDK's types.
 */
export function stateWord(state: TaskState | undefined): string {
  const name = TaskState[state ?? TaskState.TASK_STATE_UNSPECIFIED] as string | undefined;
  if (name === undefined) return String(state);
  return name
    .replace(/^TASK_STATE_/, "")
    .toLowerCase()
    .replace(/_/g, "-");
}

const NUMBERED_STATE = /\bstate \((\d+)\)/g;

/**
 * `text` with every "state (<number>)" naming a task state by its word: the SDK's own error
 * texts interpolate the enum (`Task … is in a terminal state (3) and cannot be modified.`).
 * A number that is no task state is left as it is. Pure.
 */
export function withStateWords(text: string): string {
  return text.replace(NUMBERED_STATE, (whole, n: string) => {
    const state = Number(n);
    return TaskState[state] === undefined ? whole : `state (${stateWord(state)})`;
  });
}
