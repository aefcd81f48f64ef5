/**
 * The tasks the list holds, page by page (ListTasks' `pageSize`/`pageToken`): each poll reads the
 * first page again and puts it on top of the older pages already read ("Show more"), so a list
 * of a thousand tasks is read once, a page at a time, not every two seconds. Pure.
 */
import { TaskState, type Task } from "@a2a-js/sdk";

/** Tasks a page of ListTasks holds; and messages of each, enough to hold what it asked. */
export const PAGE_SIZE = 50;
export const LIST_HISTORY = 20;

/** ListTasks of every conversation of the caller, one page from `pageToken` ("": the first). */
export const listRequest = (pageToken: string) => ({
  tenant: "",
  contextId: "",
  status: TaskState.TASK_STATE_UNSPECIFIED,
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
