/**
 * Between the A2A SDK and our tasks: the layers of the request handler stack, each a decorator
 * over the one below (`HandlerLayer`; src/app/request-stack.ts lists them): the guards (the
 * checks that must refuse a request before any task or bus exists), the operator role (an
 * operator's request on another caller's task is served in that owner's scope), replay and
 * generations; the bus manager, and the task channel through which a task publishes events and
 * writes the store.
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
export { HandlerLayer } from "./handler-layer.js";
export { OperatorRequestHandler, type OperatorAccess } from "./operator-request-handler.js";
export { CallerLimitError } from "./limit-error.js";
export { TaskBusManager } from "./bus-manager.js";
export { TaskChannel, type ChannelOptions } from "./task-channel.js";
