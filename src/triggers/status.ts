import type { Task } from "@a2a-js/sdk";
import { WORKSPACES_PATH } from "../config/workspaces.js";
import type { TriggersConfig } from "../config/triggers-schema.js";
import { HOOKS_PATH, type LastFiring, type TriggerStatus } from "../contract/triggers.js";

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
