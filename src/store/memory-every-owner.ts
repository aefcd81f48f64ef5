import type { ListTasksRequest, ListTasksResponse, Task } from "@a2a-js/sdk";
import {
  InMemoryTaskStore,
  resolveUserScope,
  ServerCallContext,
  type TaskStore,
} from "@a2a-js/sdk/server";
import { withOwner } from "../contract/operator.js";
import { callContextOf } from "../identity/conversation.js";
import type { EveryOwnerTasks } from "./every-owner.js";

interface Scope {
  readonly tenant: string;
  readonly owner: string;
}

/** The call context of `owner` in `tenant`, as a store scopes it. */
function scopeContext(scope: Scope): ServerCallContext {
  const user = callContextOf(scope.owner).user;
  return new ServerCallContext({ ...(user && { user }), tenant: scope.tenant });
}

/**
 * A task store kept in memory (or one a caller supplies), which also remembers each task's scope
 * as it is saved: the memory store's `EveryOwnerTasks` (its buckets are the SDK's and private).
 * As much is kept as the store below keeps: one entry per task, lost at restart with it.
 */
export class OwnerIndexedStore implements TaskStore, EveryOwnerTasks {
  /** Each saved task's scope, by task id. */
  private readonly scopes = new Map<string, Scope>();

  constructor(private readonly inner: TaskStore = new InMemoryTaskStore()) {}

  async save(task: Task, context: ServerCallContext): Promise<void> {
    await this.inner.save(task, context);
    this.scopes.set(task.id, { tenant: context.tenant ?? "", owner: resolveUserScope(context) });
  }

  load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return this.inner.load(taskId, context);
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.inner.list(params, context);
  }

  ownerOf(taskId: string, tenant: string): Promise<string | undefined> {
    const scope = this.scopes.get(taskId);
    return Promise.resolve(scope?.tenant === tenant ? scope.owner : undefined);
  }

  /**
   * Every caller's tasks of the tenant, gathered into one scratch scope of the SDK's memory
   * store, whose ListTasks then answers exactly as it does for one caller (a memory store is
   * for tests and trials: the copy costs what the list is long).
   */
  async listEveryOwner(params: ListTasksRequest, tenant: string): Promise<ListTasksResponse> {
    const scratch = new InMemoryTaskStore();
    const all = scopeContext({ tenant, owner: "every owner" });
    const owners = new Map<string, string>();
    for (const [taskId, scope] of this.scopes) {
      if (scope.tenant !== tenant) continue;
      const task = await this.inner.load(taskId, scopeContext(scope));
      if (task === undefined) continue;
      owners.set(taskId, scope.owner);
      await scratch.save(task, all);
    }
    const listed = await scratch.list(params, all);
    return {
      ...listed,
      tasks: listed.tasks.map((task) => withOwner(task, owners.get(task.id) ?? "")),
    };
  }
}
