/**
 * Which task a piece of Claude work belongs to: the executor (the A2A SDK's `AgentExecutor`)
 * that turns a request into a task, one conversation queue per (caller, context), run ownership
 * (run id and background task id to task) and the autonomous tasks created for wakes no task
 * owns.
 *
 * Imported by the app's wiring (src/app/agent.ts) only, which builds run ownership and the autonomous
 * tasks first and hands them in (the bus manager reads run ownership too). Beside the executor:
 * what a new task's message asks (task-admission.ts, pure), what the sessions report
 * (session-events.ts), what every task works with (executor-options.ts). It imports task/,
 * content/, handler/ and the contract; what it tells per-caller limits goes through
 * `CallerAccounting` (src/limits/).
 */
export { ClaudeAgentExecutor, type ExecutorOptions } from "./executor.js";
export { callerAccounting, type CallerAccounting } from "./caller-accounting.js";
export { ContextQueue, type Ticket } from "./context-queue.js";
export {
  AutonomousTasks,
  autonomousRecord,
  wakeCaller,
  type AutonomousOpening,
  type WakeSource,
} from "./autonomous-tasks.js";
export { openChannel, type TaskOutlets } from "./task-channels.js";
export { RunOwnership, liveState, type LiveState, type OwnedTask } from "./run-ownership.js";
