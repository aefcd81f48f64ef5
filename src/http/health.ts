import type { FleetHealth } from "../fleet/fleet.js";

/** What `GET /healthz` reports. */
export interface HealthReport {
  /** `ok`, or `unavailable` when the task store does not answer or gRPC stopped (HTTP 503). */
  readonly status: "ok" | "unavailable";
  readonly store: { readonly type: string; readonly reachable: boolean; readonly error?: string };
  readonly sessions: {
    readonly live: number;
    readonly maxLive: number;
    /** Spare processes (`sessions.spares`): ready now, and taken since startup. */
    readonly spares?: { readonly ready: number; readonly taken: number };
  };
  /** The gRPC binding, when it is on. */
  readonly grpc?: GrpcBindingHealth;
  /** This server as a fleet instance (PostgreSQL store): its id, the database, its lease. */
  readonly instance?: FleetHealth;
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
}

/** Process up (it answers), store reachable, live sessions. */
export async function checkHealth(s: HealthSources): Promise<HealthReport> {
  let error: string | undefined;
  try {
    await withTimeout(s.pingStore(), s.timeoutMs ?? 2_000);
  } catch (err) {
    error = (err as Error).message;
  }
  return {
    status: error === undefined ? "ok" : "unavailable",
    store: { type: s.storeType, reachable: error === undefined, ...(error && { error }) },
    sessions: {
      live: s.liveSessions(),
      maxLive: s.maxLive,
      ...(s.spares && { spares: s.spares() }),
    },
    ...(s.instance && { instance: s.instance() }),
  };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
