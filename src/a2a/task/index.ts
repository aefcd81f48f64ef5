/**
 * One A2A task this server runs: its lifecycle (a pure transition function), the task object
 * that drives one or more Claude runs through it, its prompts (the queue, loop protection's
 * verdicts, the input timeout), what each run shows the client (streamed text, tool statuses),
 * the background work it waits for, and what it cost against its budget.
 *
 * The task object is the one imperative shell that owns the phase; its collaborators
 * (input-requests.ts, background-wait.ts, run-output.ts) hold state and decide, and stay inside
 * this folder.
 *
 * Imported by routing/ (which creates tasks and hands them runs) and handler/ (the request
 * guard refuses a budget a message may not ask for). It imports the contract,
 * interaction/ and content/, the Claude provider's types, and the session pool's lease.
 */
export { ServerTask, type ServerTaskOptions } from "./server-task.js";
export { RunTrace } from "./run-trace.js";
export type { Inbox, TaskEnvironment, TaskOrigin, TurnPolicy } from "./environment.js";
export { transition, type LifecycleEvent, type TaskPhase } from "./lifecycle.js";
export {
  addRunUsage,
  budgetStop,
  requestedBudget,
  type BudgetRequest,
  type TaskBudget,
} from "./task-usage.js";
export { requestedSettings, type SettingsRequest } from "./task-settings.js";
