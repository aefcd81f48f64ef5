import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { removeInbox } from "../workspace/inbox.js";
import { realTimers, type Timers } from "../common/timers.js";
import { TaskTable } from "./task-table.js";

export const DAY_MS = 86_400_000;

/** The epoch-ms time before which a terminal task is pruned, or undefined when nothing is. Pure. */
export function retentionCutoff(now: Date, retainDays: number): number | undefined {
  return retainDays > 0 ? now.getTime() - retainDays * DAY_MS : undefined;
}

export interface RetentionOptions {
  readonly db: Kysely<unknown>;
  /** The workspace, whose `.claude/a2a-inbox/<taskId>` folders go with their tasks. */
  readonly cwd: string;
  readonly retainDays: number;
  readonly logger: Logger;
  readonly now?: () => Date;
}

/**
 * Deletes terminal tasks whose status last changed more than `retainDays` ago, with their
 * push-notification configs and inbox folders. Unfinished tasks are never touched. Returns the
 * ids it deleted.
 */
export async function pruneExpiredTasks(o: RetentionOptions): Promise<string[]> {
  const cutoff = retentionCutoff((o.now ?? (() => new Date()))(), o.retainDays);
  if (cutoff === undefined) return [];
  const table = new TaskTable(o.db);
  const expired = await table.terminalBefore(cutoff);
  if (expired.length === 0) return [];
  await table.delete(expired);
  for (const key of expired) {
    await removeInbox(o.cwd, key.owner, key.id).catch((err: unknown) => {
      o.logger.warn({ err, taskId: key.id }, "could not remove an expired task's inbox folder");
    });
  }
  const ids = expired.map((k) => k.id);
  o.logger.info({ count: ids.length, retainDays: o.retainDays }, "pruned expired tasks");
  return ids;
}

/** Prunes now, then every `everyMs` (a day by default) until stopped. */
export function scheduleRetention(
  o: RetentionOptions & { readonly everyMs?: number; readonly timers?: Timers },
): { readonly first: Promise<void>; stop(): void } {
  const timers = o.timers ?? realTimers;
  const everyMs = o.everyMs ?? DAY_MS;
  let handle: unknown;
  let stopped = false;
  const pass = async () => {
    try {
      await pruneExpiredTasks(o);
    } catch (err) {
      o.logger.error({ err }, "pruning expired tasks failed");
    }
  };
  const arm = () => {
    if (stopped) return;
    handle = timers.setTimeout(() => void pass().then(arm), everyMs);
  };
  const first = pass().then(arm);
  return {
    first,
    stop: () => {
      stopped = true;
      if (handle !== undefined) timers.clearTimeout(handle);
    },
  };
}
