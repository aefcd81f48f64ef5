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
