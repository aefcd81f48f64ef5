/**
 * One A2A task this server runs: its lifecycle (a pure transition function), the task object
 * that drives one or more Claude runs through it, its prompts (the queue, loop protection's
 * verdicts, the input timeout), what each run shows the client (streamed text, tool statuses),
 * the background work it waits for, and what it cost against its budget.
 *
 * The task object (server-task.ts) is the task's face; its phase and shared state are in
 * task-core.ts, and each phase's steps in one collaborator: task-start.ts (queue turn, worktree,
 * inbox, process slot, lease, prompt), task-runs.ts (the runs and what they show; what a run's
 * end means is run-end.ts, pure), task-input.ts (input requests and answers), task-finish.ts
 * (the end, its usage and budgets). Below them, input-requests.ts, background-wait.ts and
 * run-output.ts hold state and decide. All stay inside this folder.
 *
 * Imported by routing/ (which creates tasks and hands them runs) and admission/ (what a new
 * task's message may ask). It imports the contract, channel/ (the task's outlet), control/,
 * interaction/ and content/, the Claude provider's types, and the session pool's lease.
 */
export { ServerTask, type ServerTaskOptions } from "./server-task.js";
export { RunTrace } from "./run-trace.js";
export type { Inbox, TaskEnvironment, TaskOrigin, TurnPolicy } from "./environment.js";
export { transition, type LifecycleEvent, type TaskPhase } from "./lifecycle.js";
export { addRunUsage, budgetStop, type TaskBudget } from "./task-usage.js";
