import type { Task } from "@a2a-js/sdk";
import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";
import type pg from "pg";
import type { Logger } from "pino";
import { isTerminalState } from "../contract/task-states.js";

type ListParams = Parameters<TaskStore["list"]>[0];
type ListResult = Awaited<ReturnType<TaskStore["list"]>>;

/**
 * The task store of a fleet instance: before a task this instance runs is first saved
 * unfinished, its owner row names this instance (so no other instance's recovery ever sees it
 * ownerless); once it is saved terminal, the row goes. Everything else passes through.
 */
export class OwnedTaskStore implements TaskStore {
  /** Tasks whose owner row names this instance (unfinished ones: bounded by what runs here). */
  private readonly owned = new Set<string>();

  constructor(
    private readonly inner: TaskStore,
    private readonly pool: pg.Pool,
    private readonly instanceId: string,
    private readonly logger: Logger,
  ) {}

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const terminal = isTerminalState(task.status?.state);
    if (!terminal && !this.owned.has(task.id)) {
      await this.pool.query(
        `INSERT INTO claude_a2a_task_owners (task_id, instance_id) VALUES ($1, $2)
         ON CONFLICT (task_id) DO UPDATE SET instance_id = excluded.instance_id,
           recorded_at = now()`,
        [task.id, this.instanceId],
      );
      this.owned.add(task.id);
    }
    await this.inner.save(task, context);
    if (terminal && this.owned.delete(task.id)) {
      await this.pool
        .query(`DELETE FROM claude_a2a_task_owners WHERE task_id = $1 AND instance_id = $2`, [
          task.id,
          this.instanceId,
        ])
        .catch((err: unknown) => {
          // Harmless: recovery drops a finished task's row later.
          this.logger.warn({ err, taskId: task.id }, "could not drop a finished task's owner row");
        });
    }
  }

  load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return this.inner.load(taskId, context);
  }

  list(params: ListParams, context: ServerCallContext): Promise<ListResult> {
    return this.inner.list(params, context);
  }
}

/** The instance recorded as the owner of a task, or undefined. */
export async function ownerOfTask(pool: pg.Pool, taskId: string): Promise<string | undefined> {
  const { rows } = await pool.query<{ instance_id: string }>(
    `SELECT instance_id FROM claude_a2a_task_owners WHERE task_id = $1`,
    [taskId],
  );
  return rows[0]?.instance_id;
}
