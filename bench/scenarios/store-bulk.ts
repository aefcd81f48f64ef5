/**
 * A store of a server that has run for a month: `count` finished tasks of other callers, written
 * straight into the SQLite file in one statement (SQLite generates the rows from one template
 * task), spread over `callers` owners, ten tasks per context and the last 30 days (the default
 * `store.retainDays`, so none is old enough to prune), mostly completed, some failed or canceled.
 */
import { Task, TaskState } from "@a2a-js/sdk";
import type BetterSqlite3 from "better-sqlite3";
import { agentMessage, textPart } from "../../src/contract/messages.js";
import { userMessage } from "../../test/support/a2a/harness.js";

const DAYS_30_MS = 30 * 86_400_000;

export interface BulkSpec {
  readonly count: number;
  readonly callers: number;
  readonly tenant: string;
  readonly now: number;
}

const TEMPLATE_ID = "bench-bulk-template";

/**
 * The row every generated one copies: a short finished exchange (a one-line prompt and answer),
 * in the SDK's payload format. Short, so that a million of them stay a few hundred MB on a
 * shared machine's disk; the client's own tasks keep the typical size.
 */
function insertTemplate(connection: BetterSqlite3.Database, tenant: string): void {
  const ref = { taskId: TEMPLATE_ID, contextId: TEMPLATE_ID };
  const json = Task.toJSON({
    id: ref.taskId,
    contextId: ref.contextId,
    status: {
      state: TaskState.TASK_STATE_COMPLETED,
      message: undefined,
      timestamp: new Date().toISOString(),
    },
    history: [userMessage("A short prompt", ref), agentMessage(ref, [textPart("A short answer.")])],
    artifacts: [],
    metadata: {},
  }) as Record<string, unknown>;
  const encode = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
  connection
    .prepare(
      `insert into tasks (tenant, owner, id, context_id, status_last_updated, status_state, status,
                          artifacts, history, metadata, protocol_version)
       values (?, 'login:bench-template', ?, ?, 0, 'TASK_STATE_COMPLETED', ?, ?, ?, ?, '1.0')`,
    )
    .run(
      tenant,
      ref.taskId,
      ref.contextId,
      encode(json.status),
      encode(json.artifacts),
      encode(json.history),
      encode(json.metadata),
    );
}

/** Inserts the rows; returns how many. */
export function seedBulk(connection: BetterSqlite3.Database, spec: BulkSpec): number {
  insertTemplate(connection, spec.tenant);
  const insert = connection.prepare(`
    insert into tasks (tenant, owner, id, context_id, status_last_updated, status_state,
                       status, artifacts, history, metadata, protocol_version)
    with recursive n(i) as (select 0 union all select i + 1 from n where i < @count - 1)
    select t.tenant,
           'login:bench-caller-' || (n.i % @callers),
           printf('%08x-0000-4000-8000-%012x', n.i, n.i),
           printf('%08x-0000-4000-9000-%012x', n.i / 10, n.i / 10),
           @now - (n.i * @span / @count),
           case n.i % 20 when 0 then 'TASK_STATE_FAILED' when 1 then 'TASK_STATE_CANCELED'
                         else 'TASK_STATE_COMPLETED' end,
           t.status, t.artifacts, t.history, t.metadata, t.protocol_version
    from n, (select * from tasks where id = @templateId) as t
  `);
  const result = insert.run({
    count: spec.count,
    callers: spec.callers,
    now: spec.now,
    span: DAYS_30_MS,
    templateId: TEMPLATE_ID,
  });
  connection.prepare("delete from tasks where id = ?").run(TEMPLATE_ID);
  return result.changes;
}
