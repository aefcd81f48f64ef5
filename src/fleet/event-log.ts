import { randomUUID } from "node:crypto";
import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import type { AgentExecutionEvent } from "@a2a-js/sdk/server";
import type pg from "pg";
import type { Logger } from "pino";
import { isTerminalState } from "../contract/task-states.js";
import { pruneCutoffs, type PrunePolicy } from "./decisions.js";
import type { FleetMetrics } from "./fleet-metrics.js";
import type { FleetListener } from "./listener.js";
import { OwnTableSource, type RelaySource } from "./relay-source.js";
import { CHANNEL } from "./tables.js";

/** A subscriber looks at the table this often even without a notification. */
const POLL_MS = 1_000;
/** Rows one read takes at most. */
const READ_BATCH = 500;

/** One task event as it travels: the A2A stream payload the owner's subscribers would get. */
export type RelayedEvent = StreamResponse;

/** Whether a subscriber's stream ends after this event: terminal or input-required, as the SDK's. */
export function endsSubscription(event: RelayedEvent): boolean {
  const payload = event.payload;
  if (payload?.$case !== "statusUpdate") return false;
  const state = payload.value.status?.state;
  return isTerminalState(state) || state === TaskState.TASK_STATE_INPUT_REQUIRED;
}

/**
 * The events the fleet relays: the owner appends every event its tasks publish; subscribers on
 * other instances read a task's events after their cursor, woken by a NOTIFY naming the task or
 * their own poll. Where the events are stored is the source's (`relay-source.ts`): the replay
 * table when events are kept for replay, else the fleet's own table.
 */
export class EventLog {
  private readonly subscribers = new Map<string, Set<Subscription>>();
  private readonly unlisten: () => void;
  private source: RelaySource;
  /** Closed (the server stops): subscriptions end at their next wake-up instead of querying. */
  closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly instanceId: string,
    listener: FleetListener,
    private readonly metrics: FleetMetrics,
    logger: Logger,
  ) {
    this.source = new OwnTableSource(pool, logger);
    this.unlisten = listener.on(CHANNEL.events, (payload) => this.wake(payload));
  }

  /** Relays from `source` from now on (set once at startup, before any task runs). */
  relayFrom(source: RelaySource): void {
    this.source = source;
  }

  /** Owner side: appends an event of a task this instance runs (written soon, in order). */
  append(taskId: string, event: AgentExecutionEvent): void {
    this.source.append(taskId, event);
  }

  /** Resolves once everything appended so far is written (or given up). */
  flushed(): Promise<void> {
    return this.source.flushed();
  }

  /**
   * Subscriber side: the events of `taskId` stored after this call, in order, until one ends the
   * subscription or `stop()` says to stop (checked at every wake-up and poll). The subscriber is
   * registered (with its cursor at the newest event) before this returns, so nothing published
   * after the caller loads its snapshot is missed.
   */
  async subscribe(taskId: string): Promise<Subscription> {
    const id = randomUUID();
    const cursor = await this.source.subscribe(id, taskId, this.instanceId);
    const subscription = new Subscription(this, id, taskId, cursor);
    this.track(subscription, true);
    return subscription;
  }

  /** @internal Reads the events after `cursor` and moves the subscriber's cursor past them. */
  async read(
    subscriber: string,
    taskId: string,
    cursor: number,
  ): Promise<{ seq: number; event: RelayedEvent }[]> {
    const rows = await this.source.read(subscriber, taskId, cursor, READ_BATCH);
    for (const row of rows) {
      this.metrics.eventsRelayed.inc();
      this.metrics.relayLag.observe(Math.max(0, row.lag));
    }
    return rows;
  }

  /**
   * The newest stored event of a task, once everything appended so far is written: what a
   * forwarded answer's events come after.
   */
  lastSeq(taskId: string): Promise<number> {
    return this.source.lastSeq(taskId);
  }

  /** @internal A subscription is woken by every notification naming its task. */
  track(subscription: Subscription, on: boolean): void {
    const { taskId } = subscription;
    let set = this.subscribers.get(taskId);
    if (on) {
      if (set === undefined) this.subscribers.set(taskId, (set = new Set()));
      set.add(subscription);
    } else if (set !== undefined) {
      set.delete(subscription);
      if (set.size === 0) this.subscribers.delete(taskId);
    }
  }

  /** @internal */
  async unsubscribe(subscription: Subscription, subscriber: string): Promise<void> {
    this.track(subscription, false);
    await this.pool
      .query(`DELETE FROM claude_a2a_event_subscribers WHERE id = $1`, [subscriber])
      .catch(() => undefined);
  }

  /**
   * Deletes what no one needs (`eventPrunable` in bulk): events every subscriber of their task
   * has read, past the grace; every event past the retention; subscribers not seen for as long,
   * or of an instance whose lease has expired. Returns how many events it deleted.
   */
  async prune(policy: PrunePolicy): Promise<number> {
    const { rows } = await this.pool.query<{ now: number }>(
      `SELECT (extract(epoch from now()) * 1000)::float8 AS now`,
    );
    const cutoffs = pruneCutoffs(rows[0]?.now ?? Date.now(), policy);
    await this.pool.query(
      `DELETE FROM claude_a2a_event_subscribers s
        WHERE s.seen_at < to_timestamp($1::float8 / 1000) OR NOT EXISTS (SELECT 1 FROM claude_a2a_instances i
              WHERE i.id = s.instance_id AND i.lease_until > now())`,
      [cutoffs.any],
    );
    return this.source.pruneEvents(cutoffs);
  }

  close(): void {
    this.closed = true;
    this.unlisten();
    for (const set of this.subscribers.values()) for (const s of set) s.wake();
  }

  private wake(payload: string): void {
    const ids = payload === "" ? [...this.subscribers.keys()] : payload.split(",");
    for (const id of ids) for (const s of this.subscribers.get(id) ?? []) s.wake();
  }
}

/** One subscriber's reading of one task's relayed events. */
export class Subscription {
  /** A notification came since the last read began: read again before waiting. */
  private woken = false;
  private resolveWait: (() => void) | undefined;

  constructor(
    private readonly log: EventLog,
    private readonly id: string,
    readonly taskId: string,
    private cursor: number,
  ) {}

  /** @internal */
  wake(): void {
    this.woken = true;
    this.resolveWait?.();
  }

  /**
   * The events, in order, until one ends the subscription (terminal, input-required) or
   * `stop()` answers true (asked after a poll that found nothing new, never on the hot path).
   */
  async *events(stop: () => Promise<boolean>): AsyncGenerator<RelayedEvent, void, undefined> {
    let idle = false;
    for (;;) {
      if (this.log.closed) return;
      this.woken = false;
      const rows = await this.log.read(this.id, this.taskId, this.cursor);
      for (const { seq, event } of rows) {
        this.cursor = seq;
        yield event;
        if (endsSubscription(event)) return;
      }
      if (rows.length > 0) continue;
      if (idle && (await stop())) return;
      idle = !(await this.nextWake());
    }
  }

  /** Resolves true at the next notification for the task, false after a poll interval. */
  private nextWake(): Promise<boolean> {
    if (this.woken) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.resolveWait = undefined;
        resolve(false);
      }, POLL_MS);
      this.resolveWait = () => {
        this.resolveWait = undefined;
        clearTimeout(timer);
        resolve(true);
      };
    });
  }

  /** Skips what is stored up to `seq` (events the caller knows are not its own). */
  skipTo(seq: number): void {
    this.cursor = Math.max(this.cursor, seq);
  }

  /** What is stored after the cursor now (one read, nothing waited for). */
  async drain(): Promise<RelayedEvent[]> {
    const rows = await this.log.read(this.id, this.taskId, this.cursor);
    const last = rows.at(-1);
    if (last !== undefined) this.cursor = last.seq;
    return rows.map((r) => r.event);
  }

  close(): Promise<void> {
    if (this.log.closed) return Promise.resolve();
    return this.log.unsubscribe(this, this.id);
  }
}
