import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { Logger } from "pino";
import type { Lease } from "./decisions.js";
import type { FleetMetrics } from "./fleet-metrics.js";
import { epochMs } from "./tables.js";

/** What `/healthz` says of this instance's lease. */
export interface LeaseHealth {
  /** `held`: renewed in time; `expired`: the last renewal came after it ran out (or failed). */
  readonly state: "held" | "expired";
  /** Until when it holds (ISO, database clock). */
  readonly expiresAt: string | undefined;
}

interface RenewRow {
  until: number;
  lapsed: boolean | null;
  stolen: boolean | null;
}

/**
 * This instance's lease in `claude_a2a_instances`: taken at startup, renewed every heartbeat.
 * Times are the database's (`now()`), so clocks of different machines never disagree about it.
 */
export class LeaseKeeper {
  /** This process, told apart from an earlier (or, misconfigured, a twin) one of the same id. */
  readonly incarnation = randomUUID();
  private expiresAt: number | undefined;
  private lapsed = false;

  constructor(
    private readonly pool: pg.Pool,
    readonly instanceId: string,
    private readonly leaseMs: number,
    private readonly metrics: FleetMetrics,
    private readonly logger: Logger,
  ) {}

  /** Takes (or takes back, after a restart) this instance's lease. */
  async take(): Promise<void> {
    const { rows } = await this.pool.query<{ until: number }>(
      `INSERT INTO claude_a2a_instances (id, incarnation, lease_until)
         VALUES ($1, $2, now() + $3 * interval '1 millisecond')
       ON CONFLICT (id) DO UPDATE SET incarnation = excluded.incarnation,
         started_at = now(), renewed_at = now(), lease_until = excluded.lease_until
       RETURNING ${epochMs("lease_until")} AS until`,
      [this.instanceId, this.incarnation, this.leaseMs],
    );
    this.expiresAt = rows[0]?.until;
    this.lapsed = false;
  }

  /** Renews the lease; says so when it had run out (another instance may have failed our tasks). */
  async renew(): Promise<void> {
    try {
      const { rows } = await this.pool.query<RenewRow>(
        `UPDATE claude_a2a_instances i
            SET renewed_at = now(), lease_until = now() + $3 * interval '1 millisecond',
                incarnation = $2
           FROM (SELECT lease_until AS old_until, incarnation AS old_incarnation
                   FROM claude_a2a_instances WHERE id = $1 FOR UPDATE) o
          WHERE i.id = $1
          RETURNING ${epochMs("i.lease_until")} AS until, o.old_until <= now() AS lapsed,
                    o.old_incarnation <> $2 AS stolen`,
        [this.instanceId, this.incarnation, this.leaseMs],
      );
      const row = rows[0];
      if (row === undefined) {
        await this.take();
        return;
      }
      if (row.stolen === true) {
        this.logger.error(
          { instanceId: this.instanceId },
          "another server renewed this instance's lease: two servers share one server.instanceId",
        );
      }
      if (row.lapsed === true) this.expired("the renewal came after the lease ran out");
      else this.lapsed = false;
      this.expiresAt = row.until;
      this.metrics.leasesRenewed.inc();
    } catch (err) {
      if (this.expiresAt !== undefined && Date.now() >= this.expiresAt) {
        this.expired((err as Error).message);
      }
      throw err;
    }
  }

  health(): LeaseHealth {
    return {
      state: this.lapsed ? "expired" : "held",
      expiresAt: this.expiresAt === undefined ? undefined : new Date(this.expiresAt).toISOString(),
    };
  }

  private expired(why: string): void {
    if (!this.lapsed) {
      this.metrics.leasesExpired.inc({ whose: "own" });
      this.logger.error(
        { instanceId: this.instanceId, why },
        "this instance's lease expired: other instances may have failed its tasks",
      );
    }
    this.lapsed = true;
  }
}

/** Every instance's lease and the database's clock (epoch ms). */
export async function readLeases(pool: pg.Pool): Promise<{ leases: Lease[]; now: number }> {
  const { rows } = await pool.query<{ id: string; until: number }>(
    `SELECT id, ${epochMs("lease_until")} AS until FROM claude_a2a_instances`,
  );
  const clock = await pool.query<{ now: number }>(`SELECT ${epochMs("now()")} AS now`);
  return {
    leases: rows.map((r) => ({ instanceId: r.id, expiresAt: r.until })),
    now: clock.rows[0]?.now ?? Date.now(),
  };
}
