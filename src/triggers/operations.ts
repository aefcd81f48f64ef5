import { TaskState } from "@a2a-js/sdk";
import { ServerCallContext, STATE_HEADERS_KEY, type A2ARequestHandler } from "@a2a-js/sdk/server";
import type { TriggersConfig } from "../config/triggers-schema.js";
import type { LastFiring, TriggersListing } from "../contract/triggers.js";
import { CallerUser, callerName, ownerKey, type Caller } from "../identity/caller.js";
import type { HookAnswer, TriggerReceiver } from "./receiver.js";
import type { Scheduler } from "./schedule/scheduler.js";
import { firingOfRow, firingOfTask, scheduleAnswer, triggerStatus } from "./status.js";

/**
 * A workspace's triggers as an operator sees and runs them (docs/triggers.md "Operating
 * triggers"): the listing with each trigger's last and next firing, and one firing now. The HTTP
 * route (`http/triggers-admin-route.ts`) serves it. A schedule's last firing is its newest row
 * (any instance's), its next the cron's, and its firing now the scheduler's.
 */

export interface TriggerOperationsOptions {
  readonly triggers: TriggersConfig;
  /** The workspace's name; undefined for the agent at the root. */
  readonly workspace: string | undefined;
  /** The scopes of the callers with the operator role (`operatorScopes`). */
  readonly operators: ReadonlySet<string>;
  /** The agent's request handler: the trigger's newest task is read through it. */
  readonly handler: A2ARequestHandler;
  /** Its webhook triggers' receiver (manual firings go through it). */
  readonly receiver?: TriggerReceiver | undefined;
  /** What this process saw last of each trigger (the receiver's `onFiring`). */
  readonly lastFirings: LastFirings;
  /** Its schedules, when it has any (their next firing, last row, and a firing now). */
  readonly schedules?: Pick<Scheduler, "nextFiring" | "lastFiring" | "fireNow">;
}

/** The last firing of each trigger this process saw, any outcome. */
export class LastFirings {
  private readonly last = new Map<string, LastFiring>();
  readonly record = (trigger: string, firing: LastFiring): void => {
    this.last.set(trigger, firing);
  };
  of(trigger: string): LastFiring | undefined {
    return this.last.get(trigger);
  }
}

export class TriggerOperations {
  constructor(private readonly o: TriggerOperationsOptions) {}

  /** Whether this caller has the operator role. */
  isOperator(caller: Caller): boolean {
    return this.o.operators.has(ownerKey(caller));
  }

  has(name: string): boolean {
    return Object.hasOwn(this.o.triggers, name);
  }

  async list(): Promise<TriggersListing> {
    const entries = Object.entries(this.o.triggers);
    const triggers = await Promise.all(
      entries.map(async ([name, trigger]) =>
        triggerStatus({
          name,
          trigger,
          workspace: this.o.workspace,
          lastFiring:
            trigger.kind === "schedule"
              ? await this.scheduleFiring(name)
              : (this.o.lastFirings.of(name) ?? (await this.newestFiring(name))),
          nextFiring: trigger.kind === "schedule" ? this.o.schedules?.nextFiring(name) : undefined,
        }),
      ),
    );
    return { triggers };
  }

  /** One firing now, as a delivery would fire it; undefined for no such trigger. */
  async fire(name: string): Promise<HookAnswer | undefined> {
    const trigger = this.has(name) ? this.o.triggers[name] : undefined;
    if (trigger === undefined) return undefined;
    switch (trigger.kind) {
      case "webhook":
        return this.o.receiver?.fireNow(name);
      case "schedule": {
        const fired = await this.o.schedules?.fireNow(name);
        return fired && scheduleAnswer(name, fired);
      }
    }
  }

  /** A schedule's newest row, sent by any instance (none: never fired). */
  private async scheduleFiring(name: string): Promise<LastFiring | undefined> {
    const row = await this.o.schedules?.lastFiring(name);
    return row && firingOfRow(row);
  }

  /** The newest task of the trigger's caller, as its last firing (none: never fired). */
  private async newestFiring(name: string): Promise<LastFiring | undefined> {
    const caller: Caller = { kind: "trigger", name };
    const context = new ServerCallContext({
      user: new CallerUser(caller),
      state: new Map<string, unknown>([
        [STATE_HEADERS_KEY, {}],
        ["caller", callerName(caller)],
      ]),
    });
    const listed = await this.o.handler.listTasks(
      {
        tenant: "",
        contextId: "",
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageSize: 1,
        pageToken: "",
        historyLength: 0,
        statusTimestampAfter: undefined,
        includeArtifacts: false,
      },
      context,
    );
    const [newest] = listed.tasks;
    return newest && firingOfTask(newest);
  }
}
