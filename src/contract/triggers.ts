/**
 * The wire side of operating triggers (docs/triggers.md "Operating triggers"): the ListTasks
 * filter that keeps a trigger's tasks, and the shapes of the operator's `<base>/triggers`
 * endpoints, which the terminal client and the web console read.
 */

/**
 * ListTasks of one trigger's tasks, a service parameter: the HTTP header `A2A-Task-Trigger`
 * (gRPC metadata `a2a-task-trigger`) naming the trigger. ListTasksRequest has no metadata, and
 * A2A v1.0 no such field.
 */
export const TASK_TRIGGER_HEADER = "a2a-task-trigger";

/** Webhook deliveries' paths under an agent's base: `<base>/hooks/<name>`. */
export const HOOKS_PATH = "/hooks";

/** The operator's listing under an agent's base (`/triggers`, `/agents/<name>/triggers`). */
export const TRIGGERS_PATH = "/triggers";

/** `POST <base>/triggers/<name>/fire`: one firing now. */
export const firePath = (name: string): string =>
  `${TRIGGERS_PATH}/${encodeURIComponent(name)}/fire`;

export type TriggerKind = "webhook" | "schedule";

/** What a firing came to (the metric's `outcome` label, for those that reached a firing). */
export type FiringOutcome = "started" | "duplicate" | "budget" | "limited" | "refused";

export interface LastFiring {
  /** RFC 3339. */
  readonly at: string;
  readonly outcome: FiringOutcome;
  readonly taskId?: string;
}

/** One trigger as `GET <base>/triggers` lists it. */
export interface TriggerStatus {
  readonly name: string;
  /** The workspace's name; absent for the agent at the root. */
  readonly workspace?: string;
  readonly kind: TriggerKind;
  /** A webhook's path, from the server's root (`/hooks/<name>`, `/agents/<ws>/hooks/<name>`). */
  readonly path?: string;
  readonly cron?: string;
  readonly timeZone?: string;
  readonly lastFiring?: LastFiring;
  /** RFC 3339; a webhook has none. */
  readonly nextFiring?: string;
}

/** `GET <base>/triggers`'s answer. */
export interface TriggersListing {
  readonly triggers: readonly TriggerStatus[];
}

/** `POST <base>/triggers/<name>/fire`'s answer (202 when started). */
export interface FireAnswer {
  readonly outcome: FiringOutcome;
  readonly trigger: string;
  readonly eventId?: string;
  readonly taskId?: string;
  readonly contextId?: string;
  readonly reason?: string;
}
