import type { AgentCard } from "@a2a-js/sdk";
import type {
  A2ARequestHandler,
  AgentExecutor,
  ExecutionEventBusManager,
  ExtendedAgentCardProvider,
  PushNotificationSender,
  PushNotificationStore,
  TaskStore,
} from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import { GenerationsRequestHandler } from "../a2a/handler/generations-handler.js";
import {
  GuardedRequestHandler,
  type ActiveTasks,
  type GuardOptions,
} from "../a2a/handler/guarded-request-handler.js";
import {
  OperatorRequestHandler,
  type OperatorAccess,
} from "../a2a/handler/operator-request-handler.js";
import { ReplayingRequestHandler } from "../a2a/handler/replaying-request-handler.js";
import { sdkRequestHandler } from "../a2a/handler/sdk-handler.js";
import { StateWordsHandler } from "../a2a/handler/state-words.js";
import { WriteOnlyPushHandler } from "../a2a/handler/write-only-push.js";
import type { PushTargetPolicy } from "../a2a/push/target.js";
import type { ReplayLog } from "../store/replay-log.js";
import { FleetRequestHandler, type Fleet } from "../fleet/open.js";

/** One layer of the stack: given the handler below it, the handler it puts on top. */
export type Layer = (inner: A2ARequestHandler) => A2ARequestHandler;

/**
 * `layers` over `base`, the first of the list outermost: a request runs through the list in its
 * order, then reaches `base`. An unset entry (a layer that is off) is left out. Pure.
 */
export function stacked(
  layers: readonly (Layer | undefined | false)[],
  base: A2ARequestHandler,
): A2ARequestHandler {
  return layers.reduceRight<A2ARequestHandler>(
    (inner, layer) => (layer ? layer(inner) : inner),
    base,
  );
}

export interface RequestStackOptions {
  readonly card: AgentCard;
  readonly taskStore: TaskStore;
  /** The executor: it runs tasks, and tells the guards and the fleet which are live here. */
  readonly executor: AgentExecutor & ActiveTasks;
  readonly busManager: ExecutionEventBusManager;
  readonly pushStore?: PushNotificationStore | undefined;
  readonly pushSender?: PushNotificationSender | undefined;
  readonly pushTargets?: PushTargetPolicy | undefined;
  /** What a message may choose and the per-caller limits (the guard's). */
  readonly policy?: GuardOptions | undefined;
  readonly extendedCard?: ExtendedAgentCardProvider | undefined;
  /** The operator role (unset: nobody has it). */
  readonly operators?: OperatorAccess | undefined;
  /** A fleet instance's (PostgreSQL): requests on tasks another instance runs go there. */
  readonly fleet?: Fleet | undefined;
  /** Event numbers kept for replay (`replay.enabled`): replay, idempotent sends, generations. */
  readonly replay?:
    { readonly log: ReplayLog; readonly workspace: string; readonly logger: Logger } | undefined;
}

const NO_OPERATORS: OperatorAccess = {
  operators: new Set(),
  ownerOf: () => Promise.resolve(undefined),
  cancelingOperator: () => undefined,
};

/**
 * The request handler every binding serves (JSON-RPC, HTTP+JSON, gRPC, v0.3): one list, outermost
 * first, in the order a request runs through it (docs/ARCHITECTURE.md, "How one message
 * travels"). Each layer is a decorator over the one below (`HandlerLayer`), and the bottom is the
 * SDK's handler, which stores the message and calls the executor.
 */
export function requestStack(o: RequestStackOptions): A2ARequestHandler {
  const replay = o.replay;
  const fleet = o.fleet;
  return stacked(
    [
      // v1.1 task generations, for a request that activates them (a generation is an event number).
      replay && ((inner) => new GenerationsRequestHandler(inner)),
      // Event numbers for SSE ids, SubscribeToTask from a cursor, idempotent sends.
      replay && ((inner) => new ReplayingRequestHandler(inner, replay)),
      // A task another fleet instance runs: its events relayed, its cancel and answers forwarded.
      fleet &&
        ((inner) =>
          new FleetRequestHandler(inner, {
            fleet,
            taskStore: o.taskStore,
            activeTasks: o.executor,
            busManager: o.busManager,
          })),
      // An operator's request on another caller's task, served in that owner's scope.
      (inner) => new OperatorRequestHandler(inner, { access: o.operators ?? NO_OPERATORS }),
      // What must be refused before any bus or task exists.
      (inner) =>
        new GuardedRequestHandler(inner, {
          card: o.card,
          taskStore: o.taskStore,
          activeTasks: o.executor,
          pushTargets: o.pushTargets,
          policy: o.policy,
        }),
      // Push credentials never read back.
      (inner) => new WriteOnlyPushHandler(inner),
      // The SDK's refusals name task states by their words.
      (inner) => new StateWordsHandler(inner),
    ],
    sdkRequestHandler({
      card: o.card,
      taskStore: o.taskStore,
      executor: o.executor,
      busManager: o.busManager,
      pushStore: o.pushStore,
      pushSender: o.pushSender,
      extendedCard: o.extendedCard,
    }),
  );
}
