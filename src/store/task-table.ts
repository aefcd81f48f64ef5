import { Task, TaskState } from "@a2a-js/sdk";
import { PUSH_NOTIFICATION_TABLE, TASK_TABLE } from "@a2a-js/sdk/server/database";
import type { Kysely } from "kysely";
import { TERMINAL_STATES, UNFINISHED_STATES } from "../contract/task-states.js";

/** A task as stored, with the scope it belongs to. */
export interface ScopedTask {
  readonly tenant: string;
  readonly owner: string;
  readonly task: Task;
}

/** The key of a stored task. */
export interface TaskKey {
  readonly tenant: string;
  readonly owner: string;
  readonly id: string;
}

/** The SDK's wire name of a state, as its store writes `status_state`. */
export const stateColumn = (state: TaskState): string => TaskState[state];

/** A row of `unfinished()`: every column a task is read from, with its scope. */
interface Row extends TaskColumns {
  tenant: string;
  owner: string;
  artifacts: string | null;
  history: string | null;
}

// The SDK's stores type their tables at runtime; these queries read the same columns.
type Tables = Record<string, Record<string, unknown>>;

/** `TASK_STATE_INPUT_REQUIRED` → `input_required`. */
export const stateLabel = (column: string | null): string =>
  column ? column.replace(/^TASK_STATE_/, "").toLowerCase() : "unknown";

/** The columns a task is stored in (the SDK's task table). */
export interface TaskColumns {
  id: string;
  context_id: string;
  status: string | null;
  metadata: string | null;
  history?: string | null;
  artifacts?: string | null;
}

const decode = (value: string | null | undefined): unknown =>
  value ? (JSON.parse(value) as unknown) : undefined;

/** A stored row as a task, as the SDK's store reads one (`fromTaskRow`). Throws if unreadable. */
export function taskOfRow(row: TaskColumns): Task {
  try {
    return Task.fromJSON({
      id: row.id,
      contextId: row.context_id,
      status: decode(row.status),
      artifacts: decode(row.artifacts),
      history: decode(row.history),
      metadata: decode(row.metadata),
    });
  } catch (cause) {
    throw new Error(`task "${row.id}" is not readable`, { cause });
  }
}

/**
 * Maintenance queries over the SDK's task and push-config tables, across every caller's scope
 * (the SDK's stores only ever see one caller). Reads use the SDK's own wire format.
 */
export class TaskTable {
  private readonly db: Kysely<Tables>;

  constructor(db: Kysely<unknown>) {
    this.db = db as unknown as Kysely<Tables>;
  }

  /** Tasks a server left in a non-terminal state. */
  async unfinished(): Promise<ScopedTask[]> {
    const rows = (await this.db
      .selectFrom(TASK_TABLE)
      .select(["tenant", "owner", "id", "context_id", "status", "artifacts", "history", "metadata"])
      .where("status_state", "in", UNFINISHED_STATES.map(stateColumn))
      .execute()) as unknown as Row[];
    return rows.map((row) => ({
      tenant: row.tenant,
      owner: row.owner,
      task: taskOfRow(row),
    }));
  }

  /** How many tasks are stored in each state (`submitted`, `working`, …), every caller's. */
  async countByState(): Promise<Record<string, number>> {
    const rows = (await this.db
      .selectFrom(TASK_TABLE)
      .select((eb) => ["status_state", eb.fn.countAll().as("n")])
      .groupBy("status_state")
      .execute()) as unknown as { status_state: string | null; n: number | string }[];
    const counts: Record<string, number> = {};
    for (const row of rows) {
      const state = stateLabel(row.status_state);
      counts[state] = (counts[state] ?? 0) + Number(row.n);
    }
    return counts;
  }

  /** Terminal tasks whose status last changed before `beforeMs` (epoch ms). */
  async terminalBefore(beforeMs: number): Promise<TaskKey[]> {
    const rows = await this.db
      .selectFrom(TASK_TABLE)
      .select(["tenant", "owner", "id"])
      .where("status_state", "in", TERMINAL_STATES.map(stateColumn))
      .where("status_last_updated", "<", beforeMs)
      .execute();
    return rows as unknown as TaskKey[];
  }

  /** Deletes these tasks and their push-notification configs. */
  async delete(keys: readonly TaskKey[]): Promise<void> {
    for (const key of keys) {
      await this.db.transaction().execute(async (tx) => {
        await tx
          .deleteFrom(PUSH_NOTIFICATION_TABLE)
          .where("tenant", "=", key.tenant)
          .where("owner", "=", key.owner)
          .where("task_id", "=", key.id)
          .execute();
        await tx
          .deleteFrom(TASK_TABLE)
          .where("tenant", "=", key.tenant)
          .where("owner", "=", key.owner)
          .where("id", "=", key.id)
          .execute();
      });
    }
  }
}
