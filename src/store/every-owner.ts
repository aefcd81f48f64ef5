import {
  TaskState,
  taskStateToJSON,
  type ListTasksRequest,
  type ListTasksResponse,
  type Task,
} from "@a2a-js/sdk";
import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";
import { TASK_TABLE } from "@a2a-js/sdk/server/database";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { withOwner } from "../contract/operator.js";
import { EVERY_OWNER_STATE_KEY } from "../identity/operators.js";
import { DEFAULT_PAGE_SIZE, decodePageToken, taskPage, type PageRow } from "./sqlite-task-list.js";

/**
 * What the operator role needs of a store beyond the SDK's `TaskStore`, which only ever sees one
 * caller's scope: whose a task is, and ListTasks over every caller's tasks.
 */
export interface EveryOwnerTasks {
  /** The scope a task is stored in, whoever's it is; undefined if none (or, never, two) hold it. */
  ownerOf(taskId: string, tenant: string): Promise<string | undefined>;
  /**
   * ListTasks as the SDK's stores answer it (filters, order, pages, columns), over every
   * caller's tasks of the tenant; each task's `metadata.owner` names its scope.
   */
  listEveryOwner(params: ListTasksRequest, tenant: string): Promise<ListTasksResponse>;
}

type ListParams = Parameters<TaskStore["list"]>[0];
type ListResult = Awaited<ReturnType<TaskStore["list"]>>;

/**
 * A task store whose ListTasks spans every caller when the request says so
 * (`EVERY_OWNER_STATE_KEY` in its state: an operator's ListTasks), so the SDK's handler still
 * checks the request and trims the history as it does for any caller. Everything else is the
 * store below's.
 */
export class EveryOwnerListing implements TaskStore {
  constructor(
    private readonly inner: TaskStore,
    private readonly everyOwner: EveryOwnerTasks,
  ) {}

  save(task: Task, context: ServerCallContext): Promise<void> {
    return this.inner.save(task, context);
  }

  load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return this.inner.load(taskId, context);
  }

  list(params: ListParams, context: ServerCallContext): Promise<ListResult> {
    if (context.state.get(EVERY_OWNER_STATE_KEY) !== true) return this.inner.list(params, context);
    return this.everyOwner.listEveryOwner(params, context.tenant ?? "");
  }
}

/** The indexes that keep an operator's lookups range reads on the SDK's task table. */
export const EVERY_OWNER_INDEXES = {
  /**
   * `ownerOf`: a task by id, whoever's (the SDK's own indexes all begin with the owner); it holds
   * the owner too, so the lookup never reads the table.
   */
  byId: "claude_a2a_tasks_tenant_id_idx",
  /** `listEveryOwner`: every caller's tasks, newest first (the SDK's page order). */
  byUpdate: "claude_a2a_tasks_tenant_updated_idx",
} as const;

/**
 * Creates the indexes `SqlEveryOwner` reads through, if missing. Only a server with operators
 * needs them (each costs a write per task saved), so only such a server makes them; once made
 * they stay (dropping the role later leaves them, harmless).
 */
export async function indexEveryOwner(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex(EVERY_OWNER_INDEXES.byId)
    .ifNotExists()
    .on(TASK_TABLE)
    .columns(["tenant", "id", "owner"])
    .execute();
  await db.schema
    .createIndex(EVERY_OWNER_INDEXES.byUpdate)
    .ifNotExists()
    .on(TASK_TABLE)
    .columns(["tenant", "status_last_updated", "id"])
    .execute();
}

type Tables = Record<string, Record<string, unknown>>;

interface Row extends PageRow {
  owner: string;
}

/**
 * `EveryOwnerTasks` over the SDK's task table, SQLite and PostgreSQL alike (through Kysely): the
 * SDK's own ListTasks statements (`DatabaseTaskStore.list`, 1.3) without the owner condition.
 */
export class SqlEveryOwner implements EveryOwnerTasks {
  private readonly db: Kysely<Tables>;

  constructor(
    db: Kysely<unknown>,
    private readonly logger: Logger,
  ) {
    this.db = db as unknown as Kysely<Tables>;
  }

  async ownerOf(taskId: string, tenant: string): Promise<string | undefined> {
    const rows = (await this.db
      .selectFrom(TASK_TABLE)
      .select(["owner"])
      .where("tenant", "=", tenant)
      .where("id", "=", taskId)
      .limit(2)
      .execute()) as unknown as { owner: string }[];
    // Task ids are the server's UUIDs: two scopes holding one would be no task of anyone's.
    return rows.length === 1 ? rows[0]?.owner : undefined;
  }

  async listEveryOwner(params: ListTasksRequest, tenant: string): Promise<ListTasksResponse> {
    const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
    let filtered = this.db.selectFrom(TASK_TABLE).where("tenant", "=", tenant);
    if (params.contextId) filtered = filtered.where("context_id", "=", params.contextId);
    if (params.status !== undefined && params.status !== TaskState.TASK_STATE_UNSPECIFIED) {
      filtered = filtered.where("status_state", "=", taskStateToJSON(params.status));
    }
    if (params.statusTimestampAfter) {
      filtered = filtered.where(
        "status_last_updated",
        ">",
        Date.parse(params.statusTimestampAfter),
      );
    }
    const counted = await filtered.select((eb) => eb.fn.countAll().as("total")).executeTakeFirst();
    const columns = ["owner", "id", "context_id", "status_last_updated", "status", "metadata"];
    if (params.historyLength === undefined || params.historyLength > 0) columns.push("history");
    if (params.includeArtifacts) columns.push("artifacts");
    let page = filtered
      .select(columns)
      .orderBy("status_last_updated", "desc")
      .orderBy("id", "desc")
      .limit(pageSize + 1);
    if (params.pageToken) {
      const cursor = decodePageToken(params.pageToken);
      page = page.where((eb) =>
        eb.or([
          eb("status_last_updated", "<", cursor.updated),
          eb.and([eb("status_last_updated", "=", cursor.updated), eb("id", "<", cursor.id)]),
        ]),
      );
    }
    const rows = (await page.execute()) as unknown as Row[];
    return taskPage({
      rows,
      pageSize,
      total: counted?.total,
      logger: this.logger,
      toTask: (task, row) => withOwner(task, row.owner),
    });
  }
}
