/**
 * The level of a request's log line. What a watcher repeats (`/healthz`, the console's files,
 * the agent card, the console's ListTasks poll every 2 s) is logged at debug when it succeeds,
 * so an open console or a health probe does not bury the lines about work; everything else, and
 * every failure (a 401 included), at info.
 */
export type RequestLogLevel = "debug" | "info";

export interface RequestFacts {
  readonly method: string;
  /** Without the query string; a workspace's prefix (`/agents/<name>`) is allowed. */
  readonly path: string;
  readonly status: number;
  /** The JSON-RPC method, when the request was one. */
  readonly rpc?: string | undefined;
}

const CARD_PATHS = new Set(["/.well-known/agent-card.json", "/.well-known/agent.json"]);

/** Whether the request is one a watcher repeats: a probe, a static file, a card, a listing. */
function isRoutineRead(r: RequestFacts, path: string): boolean {
  if (path === "/healthz") return true;
  if (r.rpc === "ListTasks") return true;
  if (r.method !== "GET" && r.method !== "HEAD") return false;
  return (
    path === "/console" ||
    path.startsWith("/console/") ||
    CARD_PATHS.has(path) ||
    /^(\/v1)?\/tasks\/?$/.test(path)
  );
}

/** Pure. */
export function requestLogLevel(r: RequestFacts): RequestLogLevel {
  if (r.status >= 400) return "info";
  const path = r.path.replace(/^\/agents\/[^/]+(?=\/|$)/, "") || "/";
  return isRoutineRead(r, path) ? "debug" : "info";
}
