import type { Logger } from "pino";
import type { Agent } from "./agent.js";
import type { Config } from "../config/schema.js";
import { triggersOfKind } from "../config/triggers-schema.js";
import type { Clock, Timers } from "../common/timers.js";
import * as fleets from "../fleet/open.js";
import { openFiringRows } from "../store/firing-rows.js";
import { databaseSpec } from "../store/task-stores.js";
import { Scheduler } from "../triggers/schedule/scheduler.js";

/**
 * A served directory's schedules (docs/triggers.md "Schedules"): their firing rows in the task
 * store's database (the memory store: a file of their own in the state dir), and the scheduler
 * that sends through the agent's request handler. Undefined when it has no schedule.
 */
export interface Schedules {
  readonly scheduler: Scheduler;
  /** Stops the timers, waits for the firings under way, closes the rows' connection. */
  close(): Promise<void>;
}

export interface SchedulesOptions {
  readonly config: Config;
  readonly agent: Agent;
  readonly logger: Logger;
  /** Where the memory store's firings file lives (`AgentOptions.stateDir`, else the workspace). */
  readonly stateDir?: string | undefined;
  readonly workspace?: string | undefined;
  readonly clock?: Clock | undefined;
  readonly timers?: Timers | undefined;
}

export async function openSchedules(o: SchedulesOptions): Promise<Schedules | undefined> {
  const { config } = o;
  if (triggersOfKind(config.triggers, "schedule").length === 0) return undefined;
  const spec = databaseSpec(config.store, config.claude.cwd);
  const workspace = o.workspace ?? "";
  const rows = await openFiringRows(spec, o.stateDir ?? config.claude.cwd, workspace);
  const scheduler = new Scheduler({
    triggers: config.triggers,
    rows,
    handler: o.agent.requestHandler,
    logger: o.logger,
    registry: o.agent.metrics.registry,
    instance: config.store.type === "postgres" ? fleets.instanceOf(config) : "",
    env: process.env,
    ...(o.clock && { clock: o.clock }),
    ...(o.timers && { timers: o.timers }),
  });
  let closing: Promise<void> | undefined;
  return {
    scheduler,
    // Once: the server calls it when its sessions close, and again when the agent does.
    close: () =>
      (closing ??= (async () => {
        await scheduler.stop();
        await rows.close();
      })()),
  };
}
