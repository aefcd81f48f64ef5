import {
  TaskState,
  taskStateToJSON,
  type ListTasksRequest,
  type ListTasksResponse,
  type Task,
} from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import type { ServerCallContext } from "@a2a-js/sdk/server";
import { DatabaseTaskStore, TASK_TABLE } from "@a2a-js/sdk/server/database";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { SAVE_SQL, taskRowValues } from "./sqlite-task-save.js";
import { writeAtomically, type Statements } from "./statement-cache.js";
import { taskOfRow, type TaskColumns } from "./task-table.js";

/** The SDK's page size when a request names none. */
export const DEFAULT_PAGE_SIZE = 50;

/** The SDK's default owner of a caller's tasks (`resolveUserScope`, not exported by the SDK). */
export const ownerOf = (context: ServerCallContext): string => context.user?.userName || "unknown";

export interface ListQuery {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

/**
 * The two statements of one ListTasks page on SQLite (the count, and the page plus one row to
 * tell whether more follow), with the filters, order and cursor of the SDK's
 * `DatabaseTaskStore.list` (1.3). The page reads only the columns a task is made of
 * (`TaskColumns`), not every column as the SDK does. Pure. Throws the SDK's
 * RequestMalformedError for a page token that is not one of its cursors.
 */
export function listQueries(
  scope: { readonly tenant: string; readonly owner: string },
  params: ListTasksRequest,
): { count: ListQuery; page: ListQuery; pageSize: number } {
  const where = ["tenant = ?", "owner = ?"];
  const filter: unknown[] = [scope.tenant, scope.owner];
  if (params.contextId) {
    where.push("context_id = ?");
    filter.push(params.contextId);
  }
  if (params.status !== undefined && params.status !== TaskState.TASK_STATE_UNSPECIFIED) {
    where.push("status_state = ?");
    filter.push(taskStateToJSON(params.status));
  }
  if (params.statusTimestampAfter) {
    where.push("status_last_updated > ?");
    filter.push(Date.parse(params.statusTimestampAfter));
  }
  const pageWhere = [...where];
  const pageFilter = [...filter];
  if (params.pageToken) {
    const cursor = decodePageToken(params.pageToken);
    const updated = cursor.updated;
    pageWhere.push("(status_last_updated < ? or (status_last_updated = ? and id < ?))");
    pageFilter.push(updated, updated, cursor.id);
  }
  const columns = ["id", "context_id", "status_last_updated", "status", "metadata"];
  if (params.historyLength === undefined || params.historyLength > 0) columns.push("history");
  if (params.includeArtifacts) columns.push("artifacts");
  const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
  const table = `"${TASK_TABLE}"`;
  return {
    count: {
      sql: `select count(*) as total from ${table} where ${where.join(" and ")}`,
      parameters: filter,
    },
    page: {
      sql:
        `select ${columns.join(", ")} from ${table} where ${pageWhere.join(" and ")} ` +
        "order by status_last_updated desc, id desc limit ?",
      parameters: [...pageFilter, pageSize + 1],
    },
    pageSize,
  };
}

/** The SDK's page token: base64 of `<ISO timestamp or empty>|<task id>`. */
export function encodePageToken(statusLastUpdated: number, id: string): string {
  const timestamp = statusLastUpdated === 0 ? "" : new Date(statusLastUpdated).toISOString();
  return Buffer.from(`${timestamp}|${id}`).toString("base64");
}

/**
 * The cursor of a page token: the last row's update time in milliseconds (0 when the token has
 * none or an unreadable one, as the SDK reads it) and its id. Throws the SDK's
 * RequestMalformedError for a token that is not one of its cursors.
 */
export function decodePageToken(token: string): { updated: number; id: string } {
  const [timestamp = "", ...id] = Buffer.from(token, "base64").toString("utf-8").split("|");
  if (id.length === 0) throw new RequestMalformedError("Invalid page token format.");
  const parsed = timestamp ? Date.parse(timestamp) : 0;
  return { updated: Number.isNaN(parsed) ? 0 : parsed, id: id.join("|") };
}

/** The columns of a ListTasks page row (history and artifacts only when asked for). */
export interface PageRow extends TaskColumns {
  status_last_updated: number | string | bigint;
}

/** `run()`'s value, or its throw, as a promise. */
function settled<T>(run: () => T): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

/** GetTask's row: the caller's task by id, the columns a task is read from. */
const LOAD_SQL =
  `select id, context_id, status, artifacts, history, metadata from "${TASK_TABLE}" ` +
  "where tenant = ? and owner = ? and id = ?";

/** A task to save and the call context whose scope it is saved in. */
export interface TaskWrite {
  readonly task: Task;
  readonly context: ServerCallContext;
}

/**
 * The SDK's database task store, with its two reads on SQLite (GetTask's load, and ListTasks)
 * and its save run as prepared statements on the connection itself instead of through its query
 * builder: building and compiling a query cost more than running it (in-process,
 * bench/micro/store-reads.ts: a load 28 → 18 µs; a page of 50 by context, its statements already
 * plain SQL, 499 → 431 µs without Kysely's executeQuery; before that change, about 1 ms through
 * the builder; a save 96 → 49 µs of CPU, two or three a warm turn). Same scope (tenant and owner
 * as the SDK resolves them), rows, order and page tokens; the meaning of every ListTasks
 * parameter is the SDK's; the store contract runs on both.
 *
 * better-sqlite3 runs a statement synchronously, and these reads do not wait for Kysely's
 * connection lock: one that comes while a transaction of Kysely's is open reads inside it,
 * which holds only this server's own newer writes. A save waits for such a transaction to end
 * (it takes Kysely's connection then), so it never lands inside another's.
 */
export class SqliteTaskStore extends DatabaseTaskStore {
  constructor(
    private readonly database: Kysely<unknown>,
    private readonly statements: Statements,
    private readonly logger: Logger,
  ) {
    super(database);
  }

  override save(task: Task, context: ServerCallContext): Promise<void> {
    return this.saveAll([{ task, context }]);
  }

  /** The tasks in one transaction (one commit); a failed one writes none of them. */
  async saveAll(writes: readonly TaskWrite[]): Promise<void> {
    const rows = writes.map((w) =>
      taskRowValues({ tenant: w.context.tenant ?? "", owner: ownerOf(w.context) }, w.task),
    );
    if (!this.statements.inTransaction) return this.write(rows);
    await this.database.connection().execute(() => this.write(rows));
  }

  private write(rows: readonly unknown[][]): Promise<void> {
    const s = this.statements;
    return settled(() =>
      writeAtomically(s, rows.length > 1, () => {
        const save = s.prepare(SAVE_SQL);
        for (const row of rows) save.run(...row);
      }),
    );
  }

  // A throw (a malformed page token, an unreadable row) is a rejection, as from the SDK.
  override load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return settled(() => {
      const row = this.statements
        .prepare(LOAD_SQL)
        .get(context.tenant ?? "", ownerOf(context), taskId) as PageRow | undefined;
      return row && taskOfRow(row);
    });
  }

  override list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return settled(() => {
      const { count, page, pageSize } = listQueries(
        { tenant: context.tenant ?? "", owner: ownerOf(context) },
        params,
      );
      const counted = this.statements.prepare(count.sql).get(...count.parameters) as
        { total: number | bigint } | undefined;
      const rows = this.statements.prepare(page.sql).all(...page.parameters) as PageRow[];
      return taskPage({ rows, pageSize, total: counted?.total, logger: this.logger });
    });
  }
}

/**
 * One ListTasks answer from its page rows (the page plus one row telling whether more follow), as
 * the SDK's store builds it: each row read into a task (`toTask` may add to it), an unreadable row
 * logged and left out, the next page's token from the last row shown.
 */
export function taskPage<R extends PageRow>(page: {
  readonly rows: readonly R[];
  readonly pageSize: number;
  readonly total: number | string | bigint | undefined;
  readonly logger: Logger;
  readonly toTask?: (task: Task, row: R) => Task;
}): ListTasksResponse {
  const { rows, pageSize, logger } = page;
  const hasMore = rows.length > pageSize;
  const shown = hasMore ? rows.slice(0, pageSize) : rows;
  const tasks: Task[] = [];
  for (const row of shown) {
    try {
      const task = taskOfRow(row);
      tasks.push(page.toTask ? page.toTask(task, row) : task);
    } catch (err) {
      // As the SDK does: one unreadable row does not hide the others.
      logger.error({ err, taskId: row.id }, "ListTasks: a stored task is not readable");
    }
  }
  const last = shown.at(-1);
  return {
    tasks,
    nextPageToken:
      hasMore && last ? encodePageToken(Number(last.status_last_updated), last.id) : "",
    pageSize,
    totalSize: Number(page.total ?? 0),
  };
}
