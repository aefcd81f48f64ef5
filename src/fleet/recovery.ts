import type { Kysely } from "kysely";
import type pg from "pg";
import type { Logger } from "pino";
import { FLEET_TEXT } from "../contract/fleet-texts.js";
import {
  failedByRestart,
  recoverUsage,
  RESTART_TEXTS,
  writeBack,
  type RecoveredUsage,
  type RecoveryTexts,
} from "../store/recovery.js";
import { TaskTable } from "../store/task-table.js";
import { recoveryVerdict, type RecoveryVerdict } from "./decisions.js";
import type { FleetMetrics } from "./fleet-metrics.js";
import { readLeases } from "./leases.js";

export interface FleetRecoveryOptions {
  readonly db: Kysely<unknown>;
  readonly pool: pg.Pool;
  readonly self: string;
  readonly logger: Logger;
  readonly metrics: FleetMetrics;
  /** What the runs of a task it fails used (else the task is failed without `usage`). */
  readonly usageOf?: RecoveredUsage | undefined;
}

/** The status texts of a task failed for this verdict. */
function textsOf(verdict: RecoveryVerdict & { fail: string }): RecoveryTexts {
  switch (verdict.fail) {
    case "restart":
      return RESTART_TEXTS;
    case "ownerLost":
      return {
        running: FLEET_TEXT.ownerLostWhileRunning(verdict.instance),
        parked: FLEET_TEXT.ownerLostWhileParked(verdict.instance),
      };
  }
}

/**
 * Restart recovery in a fleet: fails the unfinished tasks this instance ran before it restarted
 * (`atStartup`), those no owner was recorded for (`atStartup`: as a single server always did),
 * and those whose owner's lease has expired; a live instance's task is never touched. Each is
 * claimed first (its owner row deleted), so two instances sweeping at once fail it once.
 * Returns the ids of the tasks it failed.
 */
export async function recoverTasks(o: FleetRecoveryOptions, atStartup: boolean): Promise<string[]> {
  // A sweep first asks the cheap question: does any task belong to an instance whose lease ran out?
  if (!atStartup && !(await anyOrphanedOwner(o.pool))) return [];
  const unfinished = await new TaskTable(o.db).unfinished();
  const ids = unfinished.map((t) => t.task.id);
  await dropStaleOwners(o.pool, ids, atStartup ? o.self : undefined);
  const { rows } = await o.pool.query<{ task_id: string; instance_id: string }>(
    `SELECT task_id, instance_id FROM claude_a2a_task_owners WHERE task_id = ANY($1)`,
    [ids],
  );
  const owners = new Map(rows.map((r) => [r.task_id, r.instance_id]));
  const { leases, now } = await readLeases(o.pool);
  const leaseOf = new Map(leases.map((l) => [l.instanceId, l]));
  const failed: string[] = [];
  const byOwner = new Map<string, number>();
  for (const scoped of unfinished) {
    const owner = owners.get(scoped.task.id);
    const verdict = recoveryVerdict({
      owner,
      self: o.self,
      atStartup,
      ownerLease: owner === undefined ? undefined : leaseOf.get(owner),
      now,
    });
    if (verdict.fail === undefined) continue;
    if (owner !== undefined && !(await claim(o.pool, scoped.task.id, owner))) continue;
    // From this instance's session map and transcripts: a dead instance's task has usage only
    // when that instance shared this one's workspace and Claude config directory.
    const usage = await recoverUsage(o.db, scoped, o.usageOf, o.logger);
    const failedTask = failedByRestart(scoped.task, new Date(), textsOf(verdict), usage);
    await writeBack(o.db, scoped, failedTask);
    failed.push(scoped.task.id);
    o.metrics.tasksRecovered.inc({ reason: verdict.fail === "restart" ? "restart" : "owner_lost" });
    if (verdict.fail === "ownerLost") {
      byOwner.set(verdict.instance, (byOwner.get(verdict.instance) ?? 0) + 1);
    }
  }
  for (const [instance, n] of byOwner) {
    o.metrics.leasesExpired.inc({ whose: "other" });
    o.logger.warn(
      { instance, tasks: n },
      `failed ${n} task(s) of instance ${instance}, whose lease expired`,
    );
  }
  const own = failed.length - [...byOwner.values()].reduce((a, b) => a + b, 0);
  if (own > 0) {
    o.logger.warn(
      { instance: o.self, tasks: own },
      `failed ${own} task(s) left unfinished by the previous server`,
    );
  }
  return failed;
}

/** Whether some owner row names an instance whose lease has run out (or that has none). */
async function anyOrphanedOwner(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query(
    `SELECT 1 FROM claude_a2a_task_owners o
       LEFT JOIN claude_a2a_instances i ON i.id = o.instance_id
      WHERE i.id IS NULL OR i.lease_until <= now() LIMIT 1`,
  );
  return rows.length > 0;
}

/**
 * Deletes the owner rows of tasks that are no longer unfinished, of instances whose lease ran out
 * (and of this instance at its startup): a row kept by a write that never came (a crash between
 * a task's end and its row's deletion) would make every sweep look again.
 */
async function dropStaleOwners(pool: pg.Pool, unfinished: string[], self: string | undefined) {
  await pool.query(
    `DELETE FROM claude_a2a_task_owners o
      WHERE NOT (o.task_id = ANY($1))
        AND (o.instance_id = $2 OR NOT EXISTS (SELECT 1 FROM claude_a2a_instances i
              WHERE i.id = o.instance_id AND i.lease_until > now()))`,
    [unfinished, self ?? null],
  );
}

/** Takes the task from its recorded owner; false when another instance took it first. */
async function claim(pool: pg.Pool, taskId: string, owner: string): Promise<boolean> {
  const { rowCount } = await pool.query(
    `DELETE FROM claude_a2a_task_owners WHERE task_id = $1 AND instance_id = $2`,
    [taskId, owner],
  );
  return (rowCount ?? 0) > 0;
}
