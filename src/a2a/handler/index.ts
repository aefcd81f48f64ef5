/**
 * Between the A2A SDK and our tasks: the guarded request handler (the SDK's handler with the
 * checks that must refuse a request before any task or bus exists), the operator role over it
 * (an operator's request on another caller's task is served in that owner's scope), the bus
 * manager, and the task channel through which a task publishes events and writes the store.
 *
 * Imported by the bindings' wiring (src/app/agent.ts, src/app/server.ts) and by task/ and routing/ (the
 * channel). It imports the contract, content/ and push/, and src/limits/ (the admission of a new
 * task against its caller's limits).
 */
export {
  GuardedRequestHandler,
  type ActiveTasks,
  type NewTaskLimits,
} from "./guarded-request-handler.js";
export { OperatorRequestHandler, type OperatorAccess } from "./operator-request-handler.js";
export { CallerLimitError } from "./limit-error.js";
export { TaskBusManager } from "./bus-manager.js";
export { TaskChannel, type ChannelOptions } from "./task-channel.js";
