/**
 * The fleet's pure decisions: whether a lease has expired, who may fail an unfinished task, and
 * which relayed events may be deleted. The imperative code around them (leases.ts, recovery.ts,
 * events.ts) only asks them; the SQL that prunes in bulk is written from `pruneCutoffs`.
 */

/** An instance's lease as stored: until when it holds, by the database's clock (epoch ms). */
export interface Lease {
  readonly instanceId: string;
  readonly expiresAt: number;
}

/** Whether a lease has run out at `now` (epoch ms, the database's clock). Pure. */
export const leaseExpired = (lease: Lease | undefined, now: number): boolean =>
  lease === undefined || lease.expiresAt <= now;

/** What recovery does with one unfinished task. */
export type RecoveryVerdict =
  /** Fail it: this instance ran it before it restarted, or no owner was ever recorded. */
  | { readonly fail: "restart" }
  /** Fail it: its owner's lease expired (it died and did not come back). */
  | { readonly fail: "ownerLost"; readonly instance: string }
  /** Leave it: a live instance runs it (or, in a sweep, this one does). */
  | { readonly fail: undefined };

export interface RecoveryInput {
  /** The instance recorded as its owner; undefined for a task no fleet-aware server wrote. */
  readonly owner: string | undefined;
  /** This instance. */
  readonly self: string;
  /** At startup (this instance's own old tasks are failed) or in a periodic sweep (they run). */
  readonly atStartup: boolean;
  /** The owner's lease; undefined when the owner has none (never renewed one, or cleaned up). */
  readonly ownerLease: Lease | undefined;
  /** The database's clock, epoch ms. */
  readonly now: number;
}

/**
 * Who may fail an unfinished task. Pure. A live instance's task is never touched; this instance's
 * own tasks only at its startup (they belong to the process before the restart); a task without a
 * recorded owner only at startup, as a single server always did.
 */
export function recoveryVerdict(input: RecoveryInput): RecoveryVerdict {
  if (input.owner === undefined) return input.atStartup ? { fail: "restart" } : { fail: undefined };
  if (input.owner === input.self)
    return input.atStartup ? { fail: "restart" } : { fail: undefined };
  if (leaseExpired(input.ownerLease, input.now))
    return { fail: "ownerLost", instance: input.owner };
  return { fail: undefined };
}

/** How long relayed events and subscriptions are kept. */
export interface PrunePolicy {
  /** An event no subscriber still needs is deleted once it is this old (ms). */
  readonly graceMs: number;
  /** Every event is deleted once it is this old, read or not (`fleet.eventRetentionMs`). */
  readonly retentionMs: number;
}

/** A relayed event as pruning sees it. */
export interface StoredEvent {
  readonly seq: number;
  readonly createdAt: number;
}

/**
 * Whether an event may be deleted. Pure. Every subscriber of its task has it (each subscriber's
 * cursor is the last sequence number it read; a new subscriber starts after the newest event, so
 * it never needs an older one) and it is older than the grace (which covers a subscriber being
 * registered while the event commits); or it is older than the retention, read or not.
 */
export function eventPrunable(
  event: StoredEvent,
  cursors: readonly number[],
  now: number,
  policy: PrunePolicy,
): boolean {
  const age = now - event.createdAt;
  if (age >= policy.retentionMs) return true;
  return age >= policy.graceMs && cursors.every((cursor) => cursor >= event.seq);
}

/** The two instants the pruning SQL compares `created_at` with (`eventPrunable` in bulk). Pure. */
export function pruneCutoffs(now: number, policy: PrunePolicy): { read: number; any: number } {
  return { read: now - policy.graceMs, any: now - policy.retentionMs };
}
