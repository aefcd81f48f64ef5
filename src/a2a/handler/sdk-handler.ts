import type { AgentCard } from "@a2a-js/sdk";
import {
  DefaultRequestHandler,
  type A2ARequestHandler,
  type AgentExecutor,
  type ExecutionEventBusManager,
  type ExtendedAgentCardProvider,
  type PushNotificationSender,
  type PushNotificationStore,
  type TaskStore,
} from "@a2a-js/sdk/server";
import { FreshTasks } from "./fresh-tasks.js";

export interface SdkHandlerOptions {
  readonly card: AgentCard;
  readonly taskStore: TaskStore;
  readonly executor: AgentExecutor;
  readonly busManager: ExecutionEventBusManager;
  readonly pushStore?: PushNotificationStore | undefined;
  readonly pushSender?: PushNotificationSender | undefined;
  /** GetExtendedAgentCard's answer (unset: the SDK's refusal, as the card has none). */
  readonly extendedCard?: ExtendedAgentCardProvider | undefined;
}

/**
 * The bottom of the request handler stack: the SDK's own handler, which stores the message,
 * opens the task's bus and calls the executor. A new task's first load is answered without the
 * store (`fresh-tasks.ts`).
 */
export function sdkRequestHandler(o: SdkHandlerOptions): A2ARequestHandler {
  const fresh = new FreshTasks();
  return new DefaultRequestHandler(
    o.card,
    fresh.store(o.taskStore),
    fresh.marking(o.executor),
    o.busManager,
    o.pushStore,
    o.pushSender,
    o.extendedCard,
  );
}
