import type { ExecutionEventBus, TaskStore } from "@a2a-js/sdk/server";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import type { Config } from "../config/schema.js";
import { Commands } from "./commands.js";
import { EventLog } from "./event-log.js";
import { FleetMetrics } from "./fleet-metrics.js";
import { LeaseKeeper, type LeaseHealth } from "./leases.js";
import { FleetListener } from "./listener.js";
import { OwnedTaskStore, ownerOfTask } from "./owned-task-store.js";
import { recoverTasks } from "./recovery.js";
import { notifying, ReplayTableSource, type KeptLog } from "./replay-relay-source.js";
import type { ReplayBackend } from "../store/kept-events.js";
import type { RecoveredUsage } from "../store/recovery.js";
import { migrateFleet } from "./tables.js";

export type FleetConfig = Config["fleet"];

/** What `/healthz` reports of a fleet instance. */
export interface FleetHealth {
  readonly instanceId: string;
  readonly database: "postgres";
  readonly lease: LeaseHealth;
}

export interface FleetOptions {
  /** The shared PostgreSQL store's URL. */
  readonly url: string;
  readonly instanceId: string;
  readonly config: FleetConfig;
  readonly logger: Logger;
  /** The server's metrics registry: the fleet's counters join it. */
  readonly registry: Registry;
  /** What the runs of a task recovery fails used (`src/app/recovered-usage.ts`). */
  readonly recoveredUsage?: RecoveredUsage | undefined;
}

/** The grace before an event every subscriber has read is deleted (see `eventPrunable`). */
const READ_GRACE_MS = 30_000;
/** Pruning runs every this many heartbeats. */
const PRUNE_EVERY = 6;

/**
 * This server as one instance of a fleet on one PostgreSQL store (docs/storage.md "Several servers"): its
 * lease, the owner rows of its tasks, restart recovery that fails only what is this instance's or
 * a dead one's, the events table its tasks' events are relayed through, and the commands other
 * instances forward to it. Only opened for `store.type: "postgres"`.
 */
export class Fleet {
  readonly metrics: FleetMetrics;
  readonly events: EventLog;
  readonly commands: Commands;
  private readonly lease: LeaseKeeper;
  private readonly db: Kysely<unknown>;
  private heartbeat: NodeJS.Timeout | undefined;
  private beats = 0;
  private beating: Promise<void> | undefined;
  private readonly tapped = new WeakSet<ExecutionEventBus>();

  private constructor(
    private readonly o: FleetOptions,
    private readonly pool: pg.Pool,
    private readonly listener: FleetListener,
  ) {
    this.metrics = new FleetMetrics(o.registry);
    this.db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    const logger = o.logger;
    this.lease = new LeaseKeeper(pool, o.instanceId, o.config.leaseMs, this.metrics, logger);
    this.events = new EventLog(pool, o.instanceId, listener, this.metrics, logger);
    this.commands = new Commands({
      pool,
      instanceId: o.instanceId,
      listener,
      metrics: this.metrics,
      logger,
      timeoutMs: o.config.commandTimeoutMs,
      isAlive: (id) => this.isAlive(id),
    });
  }

  /** Opens the fleet's connections and tables and takes this instance's lease. */
  static async open(o: FleetOptions): Promise<Fleet> {
    const pool = new pg.Pool({ connectionString: o.url, max: 4, connectionTimeoutMillis: 10_000 });
    // An idle connection dropped by the database (a restart) must not end the process: the pool
    // discards it; the heartbeat's next query reconnects (docs/reliability.md "Faults").
    pool.on("error", (err) => o.logger.warn({ err }, "fleet: an idle database connection dropped"));
    const listener = new FleetListener(o.url, o.logger);
    try {
      await migrateFleet(pool);
      await listener.start();
      const fleet = new Fleet(o, pool, listener);
      await fleet.lease.take();
      // Whatever an earlier process of this instance left (killed before it could drop them).
      await fleet.dropOwnSubscribers();
      o.logger.info({ instanceId: o.instanceId }, "fleet instance lease taken");
      return fleet;
    } catch (err) {
      await listener.close();
      await pool.end();
      throw new Error(`fleet on PostgreSQL: ${(err as Error).message}`, { cause: err });
    }
  }

  get instanceId(): string {
    return this.o.instanceId;
  }

  /** `fleet.commandTimeoutMs`, as the error of a command no owner took up names it. */
  get commandTimeoutMs(): number {
    return this.o.config.commandTimeoutMs;
  }

  /** At startup: fails this instance's old unfinished tasks and those of dead instances. */
  recoverAtStartup(): Promise<string[]> {
    return recoverTasks(this.recoveryOptions(), true);
  }

  /** Starts the heartbeat: lease renewal, the sweep of dead instances' tasks, pruning. */
  start(): void {
    this.heartbeat = setInterval(() => {
      this.beating ??= this.beat().finally(() => (this.beating = undefined));
    }, this.o.config.heartbeatMs);
    this.heartbeat.unref();
  }

  /** The task store through which this instance records the tasks it owns. */
  ownedStore(inner: TaskStore): TaskStore {
    return new OwnedTaskStore(inner, this.pool, this.o.instanceId, this.o.logger);
  }

  /**
   * Events are kept for replay (`replay.enabled`) in `backend`'s table, which the fleet then
   * relays from instead of writing each event a second time into its own: `log` is the replay
   * log over it. Returns the backend to keep them through (its writes wake the subscribers).
   */
  relayReplay(backend: ReplayBackend, log: KeptLog): ReplayBackend {
    this.events.relayFrom(new ReplayTableSource(this.pool, log));
    return notifying(backend, this.pool, this.o.logger);
  }

  /** Relays every event published on this task's bus (once per bus). */
  tap(taskId: string, bus: ExecutionEventBus): void {
    if (this.tapped.has(bus)) return;
    this.tapped.add(bus);
    bus.on("event", (event) => this.events.append(taskId, event));
  }

  /** The instance that runs `taskId` when it is another one, and whether its lease holds. */
  async remoteOwner(taskId: string): Promise<{ instance: string; alive: boolean } | undefined> {
    const owner = await ownerOfTask(this.pool, taskId);
    if (owner === undefined || owner === this.o.instanceId) return undefined;
    return { instance: owner, alive: await this.isAlive(owner) };
  }

  async isAlive(instanceId: string): Promise<boolean> {
    const { rows } = await this.pool.query(
      `SELECT 1 FROM claude_a2a_instances WHERE id = $1 AND lease_until > now()`,
      [instanceId],
    );
    return rows.length > 0;
  }

  health(): FleetHealth {
    return { instanceId: this.o.instanceId, database: "postgres", lease: this.lease.health() };
  }

  /** Prunes relayed events and answered commands now (the heartbeat does it regularly). */
  async prune(): Promise<number> {
    const deleted = await this.events.prune({
      graceMs: Math.min(READ_GRACE_MS, this.o.config.eventRetentionMs),
      retentionMs: this.o.config.eventRetentionMs,
    });
    await this.commands.prune(this.o.config.eventRetentionMs);
    return deleted;
  }

  /** Stops the heartbeat, writes the last events, gives the lease up and closes the connections. */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.beating;
    await this.events.flushed();
    // Relayed streams end now, and their cursors no longer hold events back from pruning.
    this.events.close();
    await this.dropOwnSubscribers();
    await this.commands.idle();
    // The lease is kept: a restart within it fails this instance's leftovers as its own; if it
    // does not come back, the others fail them once it expires.
    this.commands.close();
    await this.listener.close();
    await this.pool.end();
  }

  private async dropOwnSubscribers(): Promise<void> {
    await this.pool
      .query(`DELETE FROM claude_a2a_event_subscribers WHERE instance_id = $1`, [this.o.instanceId])
      .catch(() => undefined);
  }

  private async beat(): Promise<void> {
    const logger = this.o.logger;
    try {
      await this.lease.renew();
    } catch (err) {
      logger.warn({ err }, "could not renew this instance's lease");
      return;
    }
    this.commands.takeUp();
    try {
      await recoverTasks(this.recoveryOptions(), false);
      if (++this.beats % PRUNE_EVERY === 0) await this.prune();
    } catch (err) {
      logger.warn({ err }, "fleet sweep failed");
    }
  }

  private recoveryOptions() {
    return {
      db: this.db,
      pool: this.pool,
      self: this.o.instanceId,
      logger: this.o.logger,
      metrics: this.metrics,
      usageOf: this.o.recoveredUsage,
    };
  }
}
