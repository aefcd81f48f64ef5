import type { Logger } from "pino";
import type { LimitsConfig } from "../config/limits-schema.js";
import type { CallerUsageStore } from "../store/caller-usage.js";
import type { Clock } from "../common/timers.js";
import {
  admission,
  budgetReached,
  limitsFor,
  startsInWindow,
  utcDay,
  WINDOW_MS,
  type BudgetReached,
  type CallerLimitValues,
  type Refusal as LimitRefusal,
} from "./decisions.js";
import { refuse, type Refusal } from "../common/refusal.js";

/** Days of spend kept in the store (for an operator's own queries); older rows are pruned. */
const SPEND_DAYS_KEPT = 31;
const DAY_MS = 86_400_000;

export interface CallerLimitsOptions {
  readonly config: LimitsConfig;
  readonly store: CallerUsageStore;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** A request admitted as a new task: it holds a place under `concurrentTasks` until its task exists. */
export interface Admission {
  readonly owner: string;
  readonly messageId: string;
  /** The request ended without a task (or its task began: then a no-op). */
  release(): void;
}

export type AdmissionResult =
  | { readonly ok: true; readonly admission: Admission }
  /** `at`: when it was decided (epoch ms). */
  | (Refusal<LimitRefusal> & { readonly at: number });

interface Pending {
  readonly messageId: string;
  open: boolean;
}

/**
 * The per-caller counters and the shell around the decisions of `decisions.ts`. Every check and
 * count is synchronous, so two requests racing for a caller's last place cannot both get it;
 * the counters are mirrored in memory and written through to the store (SQLite or PostgreSQL)
 * in order, so a restart starts from what was recorded. Tasks at once are counted in memory only:
 * after a restart none of the previous server's tasks is still running.
 */
export class CallerLimits {
  private readonly starts = new Map<string, number[]>();
  private readonly spend = new Map<string, { day: string; usd: number }>();
  /** Tasks not yet ended, by id: their caller. */
  private readonly active = new Map<string, string>();
  /** Admitted requests whose task does not exist yet, by caller. */
  private readonly pending = new Map<string, Pending[]>();
  private writes: Promise<void> = Promise.resolve();
  private lastPrune = Number.NEGATIVE_INFINITY;

  private constructor(private readonly o: CallerLimitsOptions) {}

  /** The counters as the store has them (the last minute's starts, today's spend). */
  static async open(o: CallerLimitsOptions): Promise<CallerLimits> {
    const limits = new CallerLimits(o);
    const now = o.clock.now();
    const day = utcDay(now);
    const snapshot = await o.store.load(now - WINDOW_MS, day);
    for (const { owner, atMs } of snapshot.starts) limits.startsOf(owner).push(atMs);
    for (const { owner, usd } of snapshot.spend) limits.spend.set(owner, { day, usd });
    return limits;
  }

  limitsOf(owner: string): CallerLimitValues {
    return limitsFor(this.o.config, owner);
  }

  /** Admits a new task of `owner` (counted from now on) or says which limit refuses it. */
  admit(owner: string, messageId: string): AdmissionResult {
    const now = this.o.clock.now();
    const limits = this.limitsOf(owner);
    const starts = this.recentStarts(owner, now);
    const refusal = admission(
      limits,
      { starts, working: this.working(owner), spentTodayUsd: this.spentToday(owner, now) },
      now,
    );
    if (refusal !== undefined) return { ...refuse(refusal), at: now };
    if (limits.tasksPerMinute !== undefined) {
      starts.push(now);
      this.write(() => this.o.store.recordStart(owner, now));
    }
    this.pruneNow(now);
    const entry: Pending = { messageId, open: true };
    const list = this.pending.get(owner) ?? [];
    list.push(entry);
    this.pending.set(owner, list);
    return {
      ok: true,
      admission: { owner, messageId, release: () => this.close(owner, entry) },
    };
  }

  /** A task of `owner` exists: the request's (`messageId`) or one the server started itself. */
  began(owner: string, taskId: string, messageId?: string): void {
    const entry = this.pending.get(owner)?.find((p) => p.open && p.messageId === messageId);
    if (entry !== undefined) this.close(owner, entry);
    this.active.set(taskId, owner);
  }

  ended(taskId: string): void {
    this.active.delete(taskId);
  }

  /** What a run of `owner`'s cost (US dollars), added to today's spend. */
  charge(owner: string, usd: number): void {
    if (!(usd > 0)) return;
    const now = this.o.clock.now();
    const day = utcDay(now);
    this.spend.set(owner, { day, usd: this.spentToday(owner, now) + usd });
    this.write(() => this.o.store.addSpend(owner, day, usd));
  }

  /** Whether `owner`'s spend has reached its daily budget (its tasks stop after their turn). */
  budgetReached(owner: string): BudgetReached | undefined {
    const now = this.o.clock.now();
    return budgetReached(this.limitsOf(owner), this.spentToday(owner, now), now);
  }

  /** Resolves when every count so far is in the store. */
  drain(): Promise<void> {
    return this.writes;
  }

  private working(owner: string): number {
    let n = (this.pending.get(owner) ?? []).length;
    for (const o of this.active.values()) if (o === owner) n++;
    return n;
  }

  private spentToday(owner: string, now: number): number {
    const entry = this.spend.get(owner);
    return entry !== undefined && entry.day === utcDay(now) ? entry.usd : 0;
  }

  private startsOf(owner: string): number[] {
    let list = this.starts.get(owner);
    if (list === undefined) {
      list = [];
      this.starts.set(owner, list);
    }
    return list;
  }

  /** The caller's starts still in the window, kept as its list (older ones dropped). */
  private recentStarts(owner: string, now: number): number[] {
    const recent = startsInWindow(this.starts.get(owner) ?? [], now);
    this.starts.set(owner, recent);
    return recent;
  }

  private close(owner: string, entry: Pending): void {
    if (!entry.open) return;
    entry.open = false;
    const rest = (this.pending.get(owner) ?? []).filter((p) => p !== entry);
    if (rest.length === 0) this.pending.delete(owner);
    else this.pending.set(owner, rest);
  }

  /** At most once a minute: rows no decision reads any more leave the store. */
  private pruneNow(now: number): void {
    if (now - this.lastPrune < WINDOW_MS) return;
    this.lastPrune = now;
    const oldestDay = utcDay(now - SPEND_DAYS_KEPT * DAY_MS);
    this.write(() => this.o.store.prune(now - WINDOW_MS, oldestDay));
  }

  /** In order, after the ones before; a failed write is logged (the memory count still holds). */
  private write(op: () => Promise<void>): void {
    this.writes = this.writes.then(op).catch((err: unknown) => {
      this.o.logger.warn({ err }, "caller usage could not be written to the store");
    });
  }
}
