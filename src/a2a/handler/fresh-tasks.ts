import type { Task } from "@a2a-js/sdk";
import type {
  AgentExecutor,
  ExecutionEventBus,
  RequestContext,
  ServerCallContext,
  TaskStore,
} from "@a2a-js/sdk/server";

type ListParams = Parameters<TaskStore["list"]>[0];
type ListResult = Awaited<ReturnType<TaskStore["list"]>>;

/**
 * Tasks a request is creating that are not stored yet. The SDK's result manager loads a task
 * before it applies each event, the first one included, and for a task the request has just
 * created that load can only miss: one database query per new task, on the event loop, in every
 * warm turn. The SDK calls `execute()` with no stored task only for a message that names none,
 * and the id it gives that task is a new random UUID: nothing can have stored it. Such a task is
 * marked here until its first save, or until its `execute()` settles, whichever comes first.
 */
export class FreshTasks {
  private readonly ids = new Set<string>();

  has(taskId: string): boolean {
    return this.ids.has(taskId);
  }

  /** The executor, marking each task it is asked to create. */
  marking(executor: AgentExecutor): AgentExecutor {
    return {
      execute: (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
        if (ctx.task !== undefined) return executor.execute(ctx, bus);
        this.ids.add(ctx.taskId);
        // Whatever happens, the mark does not outlive the request's execution.
        return executor.execute(ctx, bus).finally(() => this.ids.delete(ctx.taskId));
      },
      cancelTask: (taskId: string, bus: ExecutionEventBus) => executor.cancelTask(taskId, bus),
    };
  }

  /** The store, answering a load of a marked task at once (it is not stored). */
  store(inner: TaskStore): TaskStore {
    return new FreshTaskStore(inner, this.ids);
  }
}

/** A task store before which the tasks in `fresh` are known not to be stored yet. */
class FreshTaskStore implements TaskStore {
  constructor(
    private readonly inner: TaskStore,
    private readonly fresh: Set<string>,
  ) {}

  save(task: Task, context: ServerCallContext): Promise<void> {
    // From this call on, a load reads what the store holds (the store sees this save at once).
    this.fresh.delete(task.id);
    return this.inner.save(task, context);
  }

  load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    if (this.fresh.has(taskId)) return Promise.resolve(undefined);
    return this.inner.load(taskId, context);
  }

  list(params: ListParams, context: ServerCallContext): Promise<ListResult> {
    return this.inner.list(params, context);
  }
}
