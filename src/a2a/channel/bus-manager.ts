import { DefaultExecutionEventBusManager, type ExecutionEventBus } from "@a2a-js/sdk/server";
import type { TaskState } from "@a2a-js/sdk";

/**
 * The SDK's bus manager, with one decision of ours: when an `execute()` returns having published
 * nothing (an answer refused because its prompt was withdrawn), the SDK would end the bus, and
 * with it the stream of every subscriber of a task that is still live. Such a bus is kept.
 */
export class TaskBusManager extends DefaultExecutionEventBusManager {
  /** `isLive`: whether a task is still live on this server (the executor's run ownership). */
  constructor(private readonly isLive: (taskId: string) => boolean) {
    super();
  }

  settleByTaskId(
    taskId: string,
    _bus: ExecutionEventBus,
    lastObservedState: TaskState | undefined,
  ): boolean {
    return lastObservedState === undefined && this.isLive(taskId);
  }
}
