import type { Task } from "@a2a-js/sdk";
import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";
import { keepExchanged } from "../contract/history.js";
import type { TerminalTaskStore } from "./terminal-task-store.js";

type ListParams = Parameters<TaskStore["list"]>[0];
type ListResult = Awaited<ReturnType<TaskStore["list"]>>;

/**
 * A task store whose tasks' history holds the exchanged messages only (`contract/history.ts`),
 * whoever writes them: the SDK's result managers append every status message, progress
 * included, and no seam of theirs says otherwise. Every result manager loads the task before
 * it applies an event, so what it answers a request with reads the same as the store. Tasks
 * stored before this rule are cleaned as they are read.
 */
export class ExchangedHistoryStore implements TaskStore {
  constructor(private readonly inner: TaskStore) {}

  save(task: Task, context: ServerCallContext): Promise<void> {
    return this.inner.save(keepExchanged(task), context);
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const task = await this.inner.load(taskId, context);
    return task && keepExchanged(task);
  }

  /** `TerminalTaskStore.amend`, when the store under this one has it. */
  async amend(
    taskId: string,
    context: ServerCallContext,
    change: (task: Task) => Task,
  ): Promise<void> {
    const inner = this.inner as Partial<Pick<TerminalTaskStore, "amend">>;
    await inner.amend?.(taskId, context, (task) => keepExchanged(change(task)));
  }

  async list(params: ListParams, context: ServerCallContext): Promise<ListResult> {
    const result = await this.inner.list(params, context);
    return { ...result, tasks: result.tasks.map(keepExchanged) };
  }
}
