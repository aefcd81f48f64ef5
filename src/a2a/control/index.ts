/**
 * The control extension's A2A side (docs/control.md): what a message for a working task is
 * (steer-decision.ts, pure) and the request guard's steering step (steer-gate.ts). The task's
 * part (delivering and showing a steering message) is task/task-steer.ts; the runtime's, the
 * Claude session's `steer`. Imported by handler/; imports the contract and identity.
 */
export { steerDecision, type SteerDecision, type SteerQuestion } from "./steer-decision.js";
export {
  cannotTakeMessage,
  isWorking,
  SteerGate,
  type Steer,
  type SteerableTasks,
} from "./steer-gate.js";
