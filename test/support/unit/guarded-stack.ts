import type { AgentCard } from "@a2a-js/sdk";
import type {
  AgentExecutor,
  ExecutionEventBusManager,
  PushNotificationStore,
  TaskStore,
} from "@a2a-js/sdk/server";
import {
  GuardedRequestHandler,
  type ActiveTasks,
  type GuardOptions,
} from "../../../src/a2a/handler/guarded-request-handler.js";
import { sdkRequestHandler } from "../../../src/a2a/handler/sdk-handler.js";
import { StateWordsHandler } from "../../../src/a2a/handler/state-words.js";
import { WriteOnlyPushHandler } from "../../../src/a2a/handler/write-only-push.js";

/** The guard over the layers below it in the server's stack (`src/app/request-stack.ts`). */
export function guardedStack(o: {
  card: AgentCard;
  taskStore: TaskStore;
  executor: AgentExecutor & ActiveTasks;
  busManager: ExecutionEventBusManager;
  pushStore?: PushNotificationStore;
  policy?: GuardOptions;
}): GuardedRequestHandler {
  const sdk = sdkRequestHandler(o);
  return new GuardedRequestHandler(new WriteOnlyPushHandler(new StateWordsHandler(sdk)), {
    card: o.card,
    taskStore: o.taskStore,
    activeTasks: o.executor,
    policy: o.policy,
  });
}
