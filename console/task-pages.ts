/**
 * The tasks the list holds, page by page (ListTasks' `pageSize`/`pageToken`): each poll reads the
 * first page again and puts it on top of the older pages already read ("Show more"), so a list
 * of a thousand tasks is read once, a page at a time, not every two seconds. Pure.
 */
import type { Task } from "@a2a-js/sdk";

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
