/**
 * What a caller is told when the task store cannot write its request (docs/reliability.md
 * "Faults"): an internal error whose text the bindings let through, since it says what happened
 * and what to do, unlike a library's own message (which stays in the log only).
 */
export const STORE_FAULT_TEXT = {
  full:
    "The task store has no room left (database or disk is full): this request was not stored. " +
    "Free space on the server, then send it again.",
  unavailable:
    "The task store is not answering: this request was not stored. Send it again in a moment.",
} as const;

export type StoreFault = keyof typeof STORE_FAULT_TEXT;

/** Whether an internal error's message is one of these texts (shown to the caller as is). */
const TEXTS: readonly string[] = Object.values(STORE_FAULT_TEXT);
export const isStoreFaultText = (message: unknown): boolean =>
  typeof message === "string" && TEXTS.includes(message);

/** Which fault a store's error is, from its code (SQLite, PostgreSQL, the network). Pure. */
export function storeFaultOf(err: unknown): StoreFault {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (code === "SQLITE_FULL" || code === "53100" || code === "ENOSPC") return "full";
  return "unavailable";
}
