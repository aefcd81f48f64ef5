import { Task, taskStateToJSON } from "@a2a-js/sdk";
import { TASK_TABLE } from "@a2a-js/sdk/server/database";

/** The SDK's payload format of a stored task (`protocol_version`, 1.3). */
const PAYLOAD_FORMAT = "1.0";

/**
 * The SDK's upsert of one task (`DatabaseTaskStore.save`, 1.3) as plain SQL: the row keyed by
 * tenant, owner and id, every other column replaced on a conflict.
 */
export const SAVE_SQL =
  `insert into "${TASK_TABLE}" (tenant, owner, id, context_id, status_last_updated, ` +
  "status_state, status, artifacts, history, metadata, protocol_version) " +
  "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (tenant, owner, id) do update set " +
  "context_id = excluded.context_id, status_last_updated = excluded.status_last_updated, " +
  "status_state = excluded.status_state, status = excluded.status, " +
  "artifacts = excluded.artifacts, history = excluded.history, metadata = excluded.metadata, " +
  "protocol_version = excluded.protocol_version";

const encode = (value: unknown): string | null =>
  value === undefined ? null : JSON.stringify(value);

/** The SDK's `statusLastUpdated`: the status timestamp in ms, 0 when unset or unreadable. */
function updatedAt(timestamp: string | undefined): number {
  if (!timestamp) return 0;
  const parsed = Date.parse(timestamp);
  return Number.isNaN(parsed) ? 0 : parsed;
}

/**
 * The parameters of `SAVE_SQL` for `task` in `scope`: the values the SDK's `toTaskRow` writes,
 * column for column. Throws as the SDK does for a task without an id. Pure.
 */
export function taskRowValues(
  scope: { readonly tenant: string; readonly owner: string },
  task: Task,
): unknown[] {
  if (typeof task.id !== "string") throw new Error("task has no id");
  const payload = Task.toJSON(task) as Record<string, unknown>;
  return [
    scope.tenant,
    scope.owner,
    task.id,
    task.contextId || "",
    updatedAt(task.status?.timestamp),
    task.status ? taskStateToJSON(task.status.state) : null,
    encode(payload.status),
    encode(payload.artifacts),
    encode(payload.history),
    encode(payload.metadata),
    PAYLOAD_FORMAT,
  ];
}
