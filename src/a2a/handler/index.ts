/**
 * Between the A2A SDK and our tasks: the layers of the request handler stack, each a decorator
 * over the one below (`HandlerLayer`; src/app/request-stack.ts lists them): the guards (the
 * checks that must refuse a request before any task or bus exists), the operator role (an
 * operator's request on another caller's task is served in that owner's scope), replay and
 * generations. The top of `a2a/`: nothing else of `a2a/` imports it.
 *
 * Imported by the app's wiring (src/app/request-stack.ts) and the fleet. It imports admission/
 * (what a new task's message may ask), channel/ (event numbers), control/, content/, push/ and
 * the contract.
 */
export {
  GuardedRequestHandler,
  type ActiveTasks,
  type NewTaskLimits,
} from "./guarded-request-handler.js";
export { HandlerLayer } from "./handler-layer.js";
export { OperatorRequestHandler, type OperatorAccess } from "./operator-request-handler.js";
export { CallerLimitError } from "./limit-error.js";
