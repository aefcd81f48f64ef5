import { randomUUID } from "node:crypto";
import type { A2ARequestHandler } from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import {
  triggersOfKind,
  type ScheduleTrigger,
  type TriggersConfig,
} from "../../config/triggers-schema.js";
import { OneShot, realClock, realTimers, type Clock, type Timers } from "../../common/timers.js";
import type { FiringOutcome, FiringRow, FiringRows } from "../../store/firing-rows.js";
import { fire, type Firing } from "../fire.js";
import { firingCounter, type FiringCounter } from "../firing-metric.js";
import { catchUpPlan, duePlan } from "./catch-up.js";
import { firingsBetween, nextFiring } from "./next-firing.js";
import { scheduleMessage, type FiringWay } from "./schedule-message.js";

/**
 * A workspace's schedules (docs/triggers.md "Schedules"): at start, the firings missed while no
 * server ran follow each one's `catchUp`; then a timer per schedule, on the clock seam, fires each
 * period. Every firing claims its row first (`FiringRows.claim`); only the claimer sends, through
 * the same path as a webhook's (`fire`), as the caller `trigger:<name>`.
 */

/** The longest a timer waits before it looks at the clock again (a clock set, a long period). */
const MAX_WAIT_MS = 60 * 60 * 1000;

/** What `fireNow` and each firing ended as (`duplicate`: its row was claimed already). */
export type ScheduleFiringResult =
  (Firing & { readonly key: string }) | { readonly outcome: "not-found"; readonly reason: string };

export interface SchedulerOptions {
  readonly triggers: TriggersConfig;
  readonly rows: FiringRows;
  readonly handler: A2ARequestHandler;
  readonly logger: Logger;
  /** Where the firings' counter is registered (the agent's metrics). */
  readonly registry: Registry;
  /** This server's fleet instance ("" alone): recorded on the rows it claims. */
  readonly instance: string;
  /** The environment a push target's token is read from (`push.tokenEnv`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly clock?: Clock;
  readonly timers?: Timers;
}

interface Entry {
  readonly trigger: ScheduleTrigger;
  readonly timer: OneShot;
  /** Every period at or before it has been considered (fired, skipped or claimed elsewhere). */
  cursor: Date;
}

export class Scheduler {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly firings: FiringCounter;
  private readonly clock: Clock;
  private stopped = false;

  constructor(private readonly o: SchedulerOptions) {
    this.clock = o.clock ?? realClock;
    this.firings = firingCounter(o.registry);
    const timers = o.timers ?? realTimers;
    for (const [name, trigger] of triggersOfKind(o.triggers, "schedule")) {
      this.entries.set(name, { trigger, timer: new OneShot(timers), cursor: this.now() });
    }
  }

  /** The schedules' names, in the config's order. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  /** Catches up each schedule (its `catchUp`), then arms its timer. */
  async start(): Promise<void> {
    for (const [name, entry] of this.entries) {
      try {
        await this.track(this.catchUp(name, entry));
      } catch (err) {
        this.o.logger.error(
          { trigger: name, err: (err as Error).message },
          "schedule: catch-up failed",
        );
      }
      this.arm(name, entry);
    }
  }

  /** Stops every timer and waits for the firings under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const entry of this.entries.values()) entry.timer.clear();
    await this.settled();
  }

  /** Waits for the firings under way (and those they lead to) to end. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** The schedule's next firing after now, or undefined (no such schedule, or none ever). */
  nextFiring(name: string): Date | undefined {
    const entry = this.entries.get(name);
    return (
      entry &&
      nextFiring(entry.trigger, new Date(Math.max(this.now().getTime(), entry.cursor.getTime())))
    );
  }

  /** Its latest firing that sent (or tried to send) a task, on any instance, scheduled or manual. */
  async lastFiring(name: string): Promise<FiringRow | undefined> {
    if (!this.entries.has(name)) return undefined;
    return this.o.rows.latest(name, ["scheduled", "manual"], { skipped: false });
  }

  /** One firing now, keyed as a manual one (its own row): what an operator's "fire" runs. */
  async fireNow(name: string): Promise<ScheduleFiringResult> {
    const entry = this.entries.get(name);
    if (entry === undefined) {
      return { outcome: "not-found", reason: `No schedule "${name}" in this workspace.` };
    }
    return this.track(this.fireAt(name, entry, this.now(), "manual"));
  }

  private now(): Date {
    return new Date(this.clock.now());
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p)).catch(() => undefined);
    return p;
  }

  private async catchUp(name: string, entry: Entry): Promise<void> {
    const now = this.now();
    entry.cursor = now;
    const last = await this.o.rows.latest(name, ["scheduled", "baseline"], { skipped: true });
    if (last === undefined) {
      // Never run before: nothing was missed; from now on, what a restart misses counts.
      await this.o.rows.claim(this.row(name, "baseline", "baseline", now, "baseline"));
      return;
    }
    const missed = firingsBetween(entry.trigger, last.scheduledAt, now);
    const plan = catchUpPlan(entry.trigger.catchUp, missed);
    if (missed.latest === undefined) return;
    const claimed =
      plan.fire === undefined
        ? await this.o.rows.claim(
            this.row(name, missed.latest.toISOString(), "scheduled", missed.latest, "skipped"),
          )
        : (await this.fireAt(name, entry, plan.fire, "catch-up")).outcome !== "duplicate";
    // Only the instance that claimed the period tells what was skipped: once in all.
    if (claimed) this.skipped(name, plan.skipped, missed.capped, last.scheduledAt, missed.latest);
  }

  private arm(name: string, entry: Entry): void {
    if (this.stopped) return;
    const next = nextFiring(entry.trigger, entry.cursor);
    if (next === undefined) return;
    const wait = Math.min(Math.max(next.getTime() - this.now().getTime(), 0), MAX_WAIT_MS);
    entry.timer.arm(wait, () => void this.track(this.wake(name, entry)));
  }

  private async wake(name: string, entry: Entry): Promise<void> {
    try {
      const now = this.now();
      const missed = firingsBetween(entry.trigger, entry.cursor, now);
      const plan = duePlan(missed);
      if (plan.fire === undefined) return;
      const since = entry.cursor;
      entry.cursor = now;
      const firing = await this.fireAt(name, entry, plan.fire, "scheduled");
      if (firing.outcome !== "duplicate") {
        this.skipped(name, plan.skipped, missed.capped, since, plan.fire);
      }
    } catch (err) {
      this.o.logger.error(
        { trigger: name, err: (err as Error).message },
        "schedule: the firing failed",
      );
    } finally {
      this.arm(name, entry);
    }
  }

  private async fireAt(
    name: string,
    entry: Entry,
    time: Date,
    way: FiringWay,
  ): Promise<Firing & { readonly key: string }> {
    const key = way === "manual" ? `manual:${randomUUID()}` : time.toISOString();
    const kind = way === "manual" ? "manual" : "scheduled";
    const scheduledTime = time.toISOString();
    if (!(await this.o.rows.claim(this.row(name, key, kind, time, "claimed")))) {
      this.firings.inc({ trigger: name, outcome: "duplicate" });
      this.o.logger.debug(
        { trigger: name, scheduledTime, firing: way, outcome: "duplicate" },
        "schedule: fired already (another instance, or before a restart)",
      );
      return { outcome: "duplicate", taskId: "", contextId: "", key };
    }
    const message = scheduleMessage({ name, trigger: entry.trigger, time, way, key });
    const push = entry.trigger.push && {
      url: entry.trigger.push.url,
      token: (entry.trigger.push.tokenEnv && this.o.env[entry.trigger.push.tokenEnv]) || "",
    };
    const firing = await fire(this.o.handler, name, message, `schedule:${key}`, push);
    const started = firing.outcome === "started" || firing.outcome === "duplicate";
    await this.o.rows.settle(name, key, firing.outcome, started ? firing.taskId : undefined);
    this.firings.inc({ trigger: name, outcome: firing.outcome });
    const detail = started
      ? { taskId: firing.taskId, contextId: firing.contextId }
      : { reason: firing.reason };
    this.o.logger[started ? "info" : "warn"](
      { trigger: name, scheduledTime, firing: way, outcome: firing.outcome, ...detail },
      firing.outcome === "budget"
        ? "schedule: daily budget reached, nothing started"
        : `schedule: ${firing.outcome}`,
    );
    return { ...firing, key };
  }

  private skipped(name: string, count: number, capped: boolean, from: Date, to: Date): void {
    if (count === 0) return;
    this.firings.inc({ trigger: name, outcome: "skipped" }, count);
    this.o.logger.info(
      {
        trigger: name,
        outcome: "skipped",
        skipped: capped ? `${count} or more` : count,
        from: from.toISOString(),
        to: to.toISOString(),
      },
      "schedule: missed firings skipped",
    );
  }

  private row(
    trigger: string,
    key: string,
    kind: FiringRow["kind"],
    scheduledAt: Date,
    outcome: FiringOutcome,
  ): FiringRow {
    return { trigger, key, kind, scheduledAt, instance: this.o.instance, outcome };
  }
}
