import type {
  ExecutionEventBusManager,
  PushNotificationSender,
  PushNotificationStore,
  TaskStore,
} from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import type { TaskRef } from "../../contract/messages.js";
import type { ReplayLog } from "../../store/replay-log.js";
import { TaskChannel } from "../channel/task-channel.js";

/** Where every task's events go: the task store, the buses and, when the card offers push, webhooks. */
export interface TaskOutlets {
  /** Where a parked task's later events are written when no request is attached. */
  readonly taskStore: TaskStore;
  readonly busManager: ExecutionEventBusManager;
  /** Push-notification configs and delivery, when the card advertises them. */
  readonly push?: {
    readonly store: PushNotificationStore;
    readonly sender: PushNotificationSender;
  };
  /** Numbers and keeps every task's events for replay (unset: not numbered). */
  readonly replay?: ReplayLog;
}

/** The one channel of a new task, a client's or an autonomous one. */
export function openChannel(outlets: TaskOutlets, ref: TaskRef, logger: Logger): TaskChannel {
  return new TaskChannel({
    ref,
    store: outlets.taskStore,
    busManager: outlets.busManager,
    logger,
    ...(outlets.push && { push: outlets.push.sender }),
    ...(outlets.replay && { replay: outlets.replay }),
  });
}
