import type { Task } from "@a2a-js/sdk";
import { WORKSPACES_PATH } from "../config/workspaces.js";
import type { TriggersConfig } from "../config/triggers-schema.js";
import { HOOKS_PATH, type LastFiring, type TriggerStatus } from "../contract/triggers.js";
import type { FiringRow } from "../store/firing-rows.js";
import type { HookAnswer } from "./receiver.js";
import type { ScheduleFiringResult } from "./schedule/scheduler.js";

/**
 * What the operator's listing says of each trigger (docs/triggers.md "Operating triggers"):
 * its kind and where or when it fires, its last firing and its next. Pure.
 */

type AnyTrigger = TriggersConfig[string];

/** A webhook's path from the server's root: `/hooks/<name>`, or under the workspace's prefix. */
export function webhookPath(workspace: string | undefined, name: string): string {
  const base = workspace === undefined ? "" : `${WORKSPACES_PATH}/${workspace}`;
  return `${base}${HOOKS_PATH}/${name}`;
}

/** One trigger's line of the listing. */
export function triggerStatus(o: {
  readonly name: string;
  readonly trigger: AnyTrigger;
  readonly workspace: string | undefined;
  readonly lastFiring: LastFiring | undefined;
  readonly nextFiring: Date | undefined;
}): TriggerStatus {
  const common = {
    name: o.name,
    ...(o.workspace !== undefined && { workspace: o.workspace }),
    ...(o.lastFiring !== undefined && { lastFiring: o.lastFiring }),
    ...(o.nextFiring !== undefined && { nextFiring: o.nextFiring.toISOString() }),
  };
  // One case per kind: a kind added to the config's union fails to compile here until listed.
  switch (o.trigger.kind) {
    case "webhook":
      return { ...common, kind: "webhook", path: webhookPath(o.workspace, o.name) };
    case "schedule":
      return {
        ...common,
        kind: "schedule",
        cron: o.trigger.cron,
        timeZone: o.trigger.timeZone ?? "UTC",
      };
  }
}

/**
 * A schedule's last firing as its newest row tells it. A row still `claimed` is a send under way
 * (or one a crash cut short): it is reported as started, without a task yet.
 */
export function firingOfRow(row: FiringRow): LastFiring | undefined {
  const at = row.scheduledAt.toISOString();
  const task = row.taskId === undefined ? {} : { taskId: row.taskId };
  switch (row.outcome) {
    case "claimed":
      return { at, outcome: "started" };
    case "started":
    case "duplicate":
    case "budget":
    case "limited":
    case "refused":
      return { at, outcome: row.outcome, ...task };
    case "skipped":
    case "baseline":
      return undefined;
  }
}

/** An operator's firing of a schedule, answered as a webhook delivery's would be. */
export function scheduleAnswer(name: string, fired: ScheduleFiringResult): HookAnswer | undefined {
  switch (fired.outcome) {
    case "not-found":
      return undefined;
    case "started":
    case "duplicate":
      return {
        status: fired.outcome === "started" ? 202 : 200,
        body: {
          outcome: fired.outcome,
          trigger: name,
          eventId: fired.key,
          taskId: fired.taskId,
          contextId: fired.contextId,
        },
      };
    case "budget":
    case "limited":
    case "refused":
      return {
        status: fired.outcome === "refused" ? 503 : 429,
        body: { outcome: fired.outcome, trigger: name, eventId: fired.key, reason: fired.reason },
      };
  }
}

/**
 * The last firing as the newest of the trigger's tasks tells it, when this process has seen none
 * (after a restart, or another instance's): it started that task; `at` is the task's latest
 * status time, the closest the store keeps.
 */
export function firingOfTask(task: Pick<Task, "id" | "status">): LastFiring {
  return {
    at: task.status?.timestamp || new Date(0).toISOString(),
    outcome: "started",
    taskId: task.id,
  };
}
