/**
 * Which task a piece of Claude work belongs to: the executor (the A2A SDK's `AgentExecutor`)
 * that turns a request into a task, one conversation queue per (caller, context), run ownership
 * (run id and background task id to task) and the autonomous tasks created for wakes no task
 * owns.
 *
 * Imported by the app's wiring (src/agent.ts) only, which builds run ownership first and hands it
 * to the bus manager and the executor. It imports task/, content/, handler/ and the contract;
 * what it tells per-caller limits goes through `CallerAccounting` (src/limits/).
 */
export { ClaudeAgentExecutor, type ExecutorOptions } from "./executor.js";
export { callerAccounting, type CallerAccounting } from "./caller-accounting.js";
export { ContextQueue, type Ticket } from "./context-queue.js";
export { RunOwnership, liveState, type LiveState, type OwnedTask } from "./run-ownership.js";
