import { existsSync } from "node:fs";
import type { AgentCard } from "@a2a-js/sdk";
import type {
  A2ARequestHandler,
  AgentExecutor,
  ExecutionEventBusManager,
  PushNotificationSender,
  PushNotificationStore,
  TaskStore,
} from "@a2a-js/sdk/server";
import type * as Guard from "../../src/a2a/handler/guarded-request-handler.js";
import type * as Sdk from "../../src/a2a/handler/sdk-handler.js";
import type * as StateWords from "../../src/a2a/handler/state-words.js";
import type * as WriteOnly from "../../src/a2a/handler/write-only-push.js";
import type { ActiveTasks } from "../../src/a2a/handler/guarded-request-handler.js";
import { builtPath } from "./built-path.js";

export interface GuardedParts {
  readonly card: AgentCard;
  readonly taskStore: TaskStore;
  readonly executor: AgentExecutor & ActiveTasks;
  readonly busManager: ExecutionEventBusManager;
  readonly pushStore: PushNotificationStore;
  readonly pushSender: PushNotificationSender;
}

/** The subclass of a build from before the layers (issue 47): six positional arguments. */
type Positional = new (...args: unknown[]) => A2ARequestHandler;

/**
 * The guarded request handler of the build at `root` over the SDK's, as the server stacks it: as
 * layers (`src/app/request-stack.ts`), or, in a build from before them, the subclass that took
 * its parts by position. A comparison against an older build then still runs.
 */
export async function guardedHandlerOf(root: string, p: GuardedParts): Promise<A2ARequestHandler> {
  const load = <T>(path: string): Promise<T> => import(builtPath(root, path)) as Promise<T>;
  const guard = await load<typeof Guard>("a2a/handler/guarded-request-handler.js");
  if (!existsSync(builtPath(root, "a2a/handler/sdk-handler.js"))) {
    const Before = guard.GuardedRequestHandler as unknown as Positional;
    return new Before(p.card, p.taskStore, p.executor, p.busManager, p.pushStore, p.pushSender);
  }
  const [sdk, words, writeOnly] = await Promise.all([
    load<typeof Sdk>("a2a/handler/sdk-handler.js"),
    load<typeof StateWords>("a2a/handler/state-words.js"),
    load<typeof WriteOnly>("a2a/handler/write-only-push.js"),
  ]);
  const below = new writeOnly.WriteOnlyPushHandler(
    new words.StateWordsHandler(sdk.sdkRequestHandler(p)),
  );
  return new guard.GuardedRequestHandler(below, {
    card: p.card,
    taskStore: p.taskStore,
    activeTasks: p.executor,
  });
}
