/**
 * The page's own performance marks (`performance.mark`), which the browser tests read to hold the
 * page to its budgets (docs/console.md "Budgets"): a mark costs nothing when nobody reads it.
 */

/** Set once, when the first page of tasks is in the list (rows that open on a click or Enter). */
export const LISTED_MARK = "console:tasks-listed";

let listed = false;

export function markListed(): void {
  if (listed) return;
  listed = true;
  performance.mark(LISTED_MARK);
}
