/**
 * The control extension's A2A side (docs/control.md): what a message for a working task is
 * (steer-decision.ts, pure) and the request guard's steering step (steer-gate.ts); what a new
 * task's rewind or fork asks and whether it can be done (rewind-fork-decision.ts,
 * rewind-fork-point.ts, pure; read from the store by routing/control-admission.ts); the
 * permission modes a task may ask for (permission-mode.ts). The task's part (delivering and
 * showing a steering message) is task/task-steer.ts; the runtime's, the Claude session's `steer`.
 * Imported by handler/, routing/ and task/; imports the contract, identity and claude/.
 */
export { steerDecision, type SteerDecision, type SteerQuestion } from "./steer-decision.js";
export {
  cannotTakeMessage,
  isWorking,
  SteerGate,
  type Steer,
  type SteerableTasks,
} from "./steer-gate.js";
export type { ControlCheck } from "./rewind-fork-decision.js";
