import { TaskState } from "@a2a-js/sdk";
import { HTTP_STATUS } from "../contract/wire-codes.js";

/**
 * The pure decisions of a delegated call (docs/peers.md): whether it may go at all (a peer the
 * operator configured, within `peers.maxDepth`), whether a failed request is tried again, and
 * what a peer's task state means for the call.
 */

/** Why a call to `agent` from a task at `depth` may not go, or undefined when it may. */
export function callRefusal(
  agent: string,
  known: readonly string[],
  depth: number,
  maxDepth: number,
): string | undefined {
  if (!known.includes(agent)) {
    const list = known.length === 0 ? "none" : known.join(", ");
    return `"${agent}" is not a configured peer (configured: ${list}). Peers are named by the operator in the peers config; list_agents shows them.`;
  }
  if (depth + 1 > maxDepth) {
    return `Refused: this task is itself at delegation depth ${depth}, and a call to ${agent} would be depth ${depth + 1}, beyond peers.maxDepth (${maxDepth}). A chain of agents calling each other stops here.`;
  }
  return undefined;
}

/** Statuses a peer's gateway answers while the peer itself is down or starting. */
const RETRIED_STATUSES = new Set<number>([
  HTTP_STATUS.BAD_GATEWAY,
  HTTP_STATUS.SERVICE_UNAVAILABLE,
  HTTP_STATUS.GATEWAY_TIMEOUT,
]);

/** What a failed request attempt means: try again after `delayMs`, or give up. */
export type RetryStep =
  { readonly retry: true; readonly delayMs: number } | { readonly retry: false };

/**
 * Whether attempt `attempt` (0-based) that failed with `failure` is tried again: a request that
 * never reached the peer (no connection) or a gateway's 502/503/504, at most `retries` times,
 * 500 ms then doubling. Anything the peer itself answered is its answer, not retried.
 */
export function retryStep(
  failure: { readonly status: number } | { readonly network: true } | { readonly aborted: true },
  attempt: number,
  retries: number,
): RetryStep {
  if (attempt >= retries || "aborted" in failure) return { retry: false };
  if ("status" in failure && !RETRIED_STATUSES.has(failure.status)) return { retry: false };
  return { retry: true, delayMs: 500 * 2 ** attempt };
}

/** What a peer's task state means for the call waiting on it. */
export type PeerStateStep = "wait" | "ask" | "done" | "failed";

export function peerStateStep(state: TaskState | undefined): PeerStateStep {
  switch (state) {
    case TaskState.TASK_STATE_INPUT_REQUIRED:
    case TaskState.TASK_STATE_AUTH_REQUIRED:
      return "ask";
    case TaskState.TASK_STATE_COMPLETED:
      return "done";
    case TaskState.TASK_STATE_FAILED:
    case TaskState.TASK_STATE_CANCELED:
    case TaskState.TASK_STATE_REJECTED:
      return "failed";
    default:
      return "wait";
  }
}

/** A peer's task state as our `delegated` statuses name it: `working`, `input-required`… */
export function stateName(state: TaskState | undefined): string {
  if (state === undefined) return "unknown";
  const name = TaskState[state] as string | undefined;
  return name === undefined
    ? String(state)
    : name
        .replace(/^TASK_STATE_/, "")
        .toLowerCase()
        .replace(/_/g, "-");
}

/** The card URL of a configured `url`: one without a path gets the well-known card path. */
export function cardUrlOf(url: string): string {
  const parsed = new URL(url);
  if (parsed.pathname === "/" || parsed.pathname === "") {
    parsed.pathname = "/.well-known/agent-card.json";
  }
  return parsed.toString();
}

/**
 * Whether a request to `url` carries the peer's bearer token: only on the origins (scheme, host,
 * port) the operator gave: its configured URL's and its `auth.origins`. A redirect elsewhere, or
 * an interface its card lists on another host, is called without it: a card and a redirect are
 * whatever the peer's host answers, and a token sent wherever they point would be theirs to take.
 */
export function sendsToken(url: string, origins: readonly string[]): boolean {
  try {
    return origins.includes(new URL(url).origin);
  } catch {
    return false;
  }
}

/** The origins a peer's token may go to: its card URL's and its `auth.origins`. */
export const tokenOrigins = (cardUrl: string, more: readonly string[] = []): string[] => [
  ...new Set([cardUrl, ...more].map((u) => new URL(u).origin)),
];

/** Most redirects one request to a peer follows, each hop checked as a request of its own. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Where a peer's answer sends a request next, or undefined when it is the answer: only a read
 * (GET, HEAD: its card) follows a redirect, to an absolute http(s) URL or one relative to
 * `from`. A POST's redirect (a message, a cancel) is returned as the peer's answer, whose
 * status the A2A client reports, rather than resent somewhere the operator did not name.
 */
export function redirectTarget(
  status: number,
  location: string | null,
  from: string,
  method: string,
): string | undefined {
  if (!REDIRECT_STATUSES.has(status) || location === null || location === "") return undefined;
  const verb = method.toUpperCase();
  if (verb !== "GET" && verb !== "HEAD") return undefined;
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    return undefined;
  }
  return next.protocol === "http:" || next.protocol === "https:" ? next.href : undefined;
}
