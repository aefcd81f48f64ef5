/**
 * What a new task's message may ask, read from its metadata: its budget (`maxBudgetUsd` within
 * `claude.maxBudgetUsd`, task-budget.ts), its model, effort, sandbox and permission mode as the
 * config allows them (task-settings.ts), the request guard's check of all of it before any task
 * exists (new-task-guard.ts), and what the task then runs with (task-admission.ts: its prompt
 * too). All pure.
 *
 * Imported by handler/ (the guard) and routing/ (the executor). It imports task/'s types, content/
 * (the prompt), control/ (permission modes) and the contract.
 */
export { checkNewTask, type NewTaskCheck, type NewTaskPolicy } from "./new-task-guard.js";
export { admitTask, type Admission } from "./task-admission.js";
export { requestedBudget, type BudgetRequest } from "./task-budget.js";
export {
  requestedSettings,
  taskSettings,
  type SettingsRequest,
  type TaskPolicies,
} from "./task-settings.js";
