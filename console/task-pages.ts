/**
 * The tasks the list holds, page by page (ListTasks' `pageSize`/`pageToken`): each poll reads the
 * first page again and puts it on top of the older pages already read ("Show more"), so a list
 * of a thousand tasks is read once, a page at a time, not every two seconds. A filter the server
 * can apply is asked of it, so a task in that state is found however far down the list it is.
 * Pure.
 */
import { TaskState, type Task } from "@a2a-js/sdk";
import type { ListFilter } from "./list-filter.js";

/** Tasks a page of ListTasks holds; and messages of each, enough to hold what it asked. */
export const PAGE_SIZE = 50;
export const LIST_HISTORY = 20;

/**
 * What the list asks the server to filter (ListTasks' `status` and `contextId`): a state chosen
 * alone (not "any", not "not over", which is several), and a conversation's link. The rest (the
 * search, the origin, the owner, "not over") is filtered in the page, over the pages read.
 */
export interface ListQuery {
  readonly status: TaskState;
  readonly contextId: string;
}

export const ANY_TASK: ListQuery = { status: TaskState.TASK_STATE_UNSPECIFIED, contextId: "" };

const STATES: Readonly<Record<string, TaskState>> = {
  submitted: TaskState.TASK_STATE_SUBMITTED,
  working: TaskState.TASK_STATE_WORKING,
  "input-required": TaskState.TASK_STATE_INPUT_REQUIRED,
  completed: TaskState.TASK_STATE_COMPLETED,
  failed: TaskState.TASK_STATE_FAILED,
  canceled: TaskState.TASK_STATE_CANCELED,
  rejected: TaskState.TASK_STATE_REJECTED,
};

/** The server's part of a filter. */
export const listQuery = (f: ListFilter): ListQuery => ({
  status: STATES[f.state] ?? TaskState.TASK_STATE_UNSPECIFIED,
  contextId: f.contextId,
});

export const sameQuery = (a: ListQuery, b: ListQuery): boolean =>
  a.status === b.status && a.contextId === b.contextId;

/** ListTasks of the caller's tasks that `query` asks for, one page from `pageToken` ("": the first). */
export const listRequest = (pageToken: string, query: ListQuery = ANY_TASK) => ({
  tenant: "",
  contextId: query.contextId,
  status: query.status,
  pageSize: PAGE_SIZE,
  pageToken,
  historyLength: LIST_HISTORY,
  statusTimestampAfter: undefined,
  includeArtifacts: false,
});

/** The fresh first page, then every task read before that it does not hold, in their order. */
export function mergeFirstPage(fresh: readonly Task[], held: readonly Task[]): Task[] {
  const ids = new Set(fresh.map((t) => t.id));
  return [...fresh, ...held.filter((t) => !ids.has(t.id))];
}

/** A next page appended (tasks moved since are kept where the first page put them). */
export function appendPage(held: readonly Task[], page: readonly Task[]): Task[] {
  const ids = new Set(held.map((t) => t.id));
  return [...held, ...page.filter((t) => !ids.has(t.id))];
}
