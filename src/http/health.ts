import type { FleetHealth } from "../fleet/fleet.js";
import type { WriteFault } from "../store/write-watch.js";
import { HTTP_STATUS } from "../contract/wire-codes.js";
import type { SweepProgress } from "../sessions/stale-sweep.js";

/**
 * `ok`; `degraded` (HTTP 200: the process serves what it can, docs/reliability.md) when the task
 * store does not answer or its last write failed; `unavailable` (HTTP 503) once gRPC stopped.
 */
export type HealthStatus = "ok" | "degraded" | "unavailable";

/** What `GET /healthz` reports. */
export interface HealthReport {
  readonly status: HealthStatus;
  readonly store: {
    readonly type: string;
    readonly reachable: boolean;
    readonly error?: string;
    /** Parts of the store whose last write failed, while they are shown. */
    readonly faults?: readonly WriteFault[];
  };
  readonly sessions: {
    readonly live: number;
    readonly maxLive: number;
    /** Spare processes (`sessions.spares`): ready now, and taken since startup. */
    readonly spares?: { readonly ready: number; readonly taken: number };
  };
  /**
   * The startup sweep of the session map (stale mappings dropped, in the background): `running`
   * until every mapping has been checked.
   */
  readonly sessionSweep?: SweepProgress;
  /** The gRPC binding, when it is on. */
  readonly grpc?: GrpcBindingHealth;
  /** This server as a fleet instance (PostgreSQL store): its id, the database, its lease. */
  readonly instance?: FleetHealth;
  /**
   * `claude.isolation: "worktree"`: git repositories found damaged while serving (the
   * workspace's, or a conversation's); any makes the status `degraded`.
   */
  readonly git?: { readonly damaged: readonly GitDamageReport[] };
}

/** A damaged repository: `workspace` or a conversation's name, git's error, since when. */
export interface GitDamageReport {
  readonly repository: string;
  readonly error: string;
  readonly since: string;
}

export interface GrpcBindingHealth {
  /** `host:port` it listens on. */
  readonly address: string;
  readonly tls: boolean;
  /** False once it stopped taking calls (shutdown). */
  readonly serving: boolean;
}

/** The report with the gRPC binding's state: one that stopped serving makes it unavailable. Pure. */
export function withGrpc(report: HealthReport, grpc: GrpcBindingHealth | undefined): HealthReport {
  if (grpc === undefined) return report;
  return { ...report, status: grpc.serving ? report.status : "unavailable", grpc };
}

/** The store's part of the status. Pure. */
export const storeStatus = (reachable: boolean, faults: readonly WriteFault[]): HealthStatus =>
  reachable && faults.length === 0 ? "ok" : "degraded";

/** The worst of several statuses (`ok` for none). Pure. */
export function worstStatus(statuses: readonly HealthStatus[]): HealthStatus {
  if (statuses.includes("unavailable")) return "unavailable";
  return statuses.includes("degraded") ? "degraded" : "ok";
}

/** `/healthz`'s HTTP status: 503 only when it no longer serves. Pure. */
export const healthHttpStatus = (status: HealthStatus): number =>
  status === "unavailable" ? HTTP_STATUS.SERVICE_UNAVAILABLE : HTTP_STATUS.OK;

export interface HealthSources {
  readonly storeType: string;
  pingStore(): Promise<void>;
  liveSessions(): number;
  readonly maxLive: number;
  spares?(): { readonly ready: number; readonly taken: number };
  /** Longest wait for the store's answer. */
  readonly timeoutMs?: number;
  /** This server as a fleet instance (PostgreSQL store), reported as `instance`. */
  readonly instance?: () => FleetHealth;
  /** Parts of the store whose last write failed. */
  readonly writeFaults?: () => readonly WriteFault[];
  /** Git repositories found damaged (worktree isolation). */
  readonly gitDamage?: () => readonly GitDamageReport[];
  /** How far the session map's startup sweep is. */
  readonly sessionSweep?: () => SweepProgress;
}

/** Process up (it answers), store reachable, live sessions. */
export async function checkHealth(s: HealthSources): Promise<HealthReport> {
  let error: string | undefined;
  try {
    await withTimeout(s.pingStore(), s.timeoutMs ?? 2_000);
  } catch (err) {
    error = (err as Error).message;
  }
  const faults = s.writeFaults?.() ?? [];
  const reachable = error === undefined;
  const damaged = s.gitDamage?.() ?? [];
  return {
    status: worstStatus([storeStatus(reachable, faults), damaged.length > 0 ? "degraded" : "ok"]),
    store: {
      type: s.storeType,
      reachable,
      ...(error && { error }),
      ...(faults.length > 0 && { faults }),
    },
    sessions: {
      live: s.liveSessions(),
      maxLive: s.maxLive,
      ...(s.spares && { spares: s.spares() }),
    },
    ...(s.sessionSweep && { sessionSweep: s.sessionSweep() }),
    ...(s.instance && { instance: s.instance() }),
    ...(s.gitDamage && { git: { damaged } }),
  };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
