import type { StreamResponse } from "@a2a-js/sdk";

/**
 * The events of each task, numbered and kept for replay (docs/reliability.md), and the sends
 * already seen (idempotency keys). One per served agent, over its task store's database.
 */
export interface ReplayLog {
  /** Keeps a task's next event (`n` = the previous one's + 1); `ends`: its terminal status. */
  append(taskId: string, n: number, event: StreamResponse, ends: boolean): void;
  /**
   * The events of `taskId` after `cursor`, or why they cannot be replayed; `knownLast`: the
   * newest number the task is known to have reached (its stored `metadata.eventNumber`).
   */
  read(taskId: string, cursor: number, knownLast?: number): Promise<ReplayRead>;
  /** The number of the task's newest kept event; undefined when none is kept. */
  last(taskId: string): Promise<number | undefined>;
  /** The earlier send with this key in this scope, within the retention. */
  findSend(scope: string, key: string): Promise<SentMessage | undefined>;
  /** Remembers a send: its key now answers with `taskId`. */
  recordSend(scope: string, key: string, sent: SentMessage): void;
  /** Writes everything pending (shutdown, tests). */
  flush(): Promise<void>;
  /** Stops the pruning, writes what is pending. */
  close(): Promise<void>;
}

export interface KeptEvent {
  readonly n: number;
  readonly event: StreamResponse;
}

export interface SentMessage {
  /** Who sent it (`ownerOf` of the call context): another caller's retry is a conflict. */
  readonly owner: string;
  readonly taskId: string;
  /** The task's last event number before this send's events: a retry replays from here. */
  readonly after: number;
}

export type ReplayRead =
  | { readonly kind: "events"; readonly events: readonly KeptEvent[] }
  /** The cursor is older than what is kept: `oldest` is the oldest kept number (none: undefined). */
  | { readonly kind: "gone"; readonly oldest: number | undefined }
  /** The cursor is past the task's last event. */
  | { readonly kind: "ahead"; readonly last: number };

/** What is kept of one task: its oldest and newest numbers (undefined: nothing). */
export interface KeptRange {
  readonly oldest: number | undefined;
  readonly last: number | undefined;
}

/**
 * Whether the events after `cursor` can be replayed from what is kept. Pure. `knownLast` is the
 * newest number the task is known to have reached (its stored `metadata.eventNumber`), which
 * tells a pruned log ("gone") from a task that has had no event yet.
 */
export function replayDecision(
  cursor: number,
  kept: KeptRange,
  knownLast = 0,
): "events" | Exclude<ReplayRead, { kind: "events" }> {
  const last = Math.max(kept.last ?? 0, knownLast);
  if (cursor > last) return { kind: "ahead", last };
  if (cursor === last) return "events";
  // What is kept may end short of `knownLast` (written behind): the rest follows live.
  if (kept.oldest !== undefined && cursor >= kept.oldest - 1) return "events";
  return { kind: "gone", oldest: kept.oldest };
}

/** A cursor as a client sends it ("17"), or undefined when it is not a whole number ≥ 0. Pure. */
export function parseCursor(value: unknown): number | undefined {
  if (typeof value === "number")
    return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== "string" || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}
