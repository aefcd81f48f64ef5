import { worstStatus, type HealthReport } from "./health.js";

/** `GET /healthz` of several workspaces: each one's report, and the whole. */
export interface WorkspacesHealthReport extends HealthReport {
  readonly workspaces: Readonly<Record<string, HealthReport>>;
}

/**
 * The server is ok when every workspace is: its store is reachable when every workspace's is (the
 * first error said), its live sessions are the sum, within the one `sessions.maxLive`. Pure.
 */
export function workspacesHealth(
  reports: readonly { readonly name: string; readonly report: HealthReport }[],
  maxLive: number,
): WorkspacesHealthReport {
  const failing = reports.find((r) => !r.report.store.reachable);
  const error = failing?.report.store.error;
  return {
    status: worstStatus(reports.map((r) => r.report.status)),
    store: {
      type: reports[0]?.report.store.type ?? "memory",
      reachable: failing === undefined,
      ...(error !== undefined && { error: `workspace "${failing?.name ?? ""}": ${error}` }),
    },
    sessions: { live: reports.reduce((n, r) => n + r.report.sessions.live, 0), maxLive },
    workspaces: Object.fromEntries(reports.map((r) => [r.name, r.report])),
  };
}
