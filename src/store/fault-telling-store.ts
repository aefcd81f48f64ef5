import type { Task } from "@a2a-js/sdk";
import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import { STORE_FAULT_TEXT, storeFaultOf } from "../contract/store-faults.js";

/**
 * The task store as the request handler sees it: a write that fails (a full disk, a database
 * gone) is logged with its cause and answered with a text that says what happened and what to
 * do (`STORE_FAULT_TEXT`), not the driver's message. Reads fail as they did.
 */
export class FaultTellingStore implements TaskStore {
  constructor(
    private readonly inner: TaskStore,
    private readonly logger: Logger,
  ) {}

  async save(task: Task, context: ServerCallContext): Promise<void> {
    try {
      await this.inner.save(task, context);
    } catch (err) {
      const fault = storeFaultOf(err);
      this.logger.error({ err, taskId: task.id, fault }, "store write failed");
      throw new Error(STORE_FAULT_TEXT[fault], { cause: err });
    }
  }

  load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return this.inner.load(taskId, context);
  }

  list(...args: Parameters<TaskStore["list"]>): ReturnType<TaskStore["list"]> {
    return this.inner.list(...args);
  }
}
