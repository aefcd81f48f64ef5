import { HTTP_STATUS } from "../../contract/wire-codes.js";

/**
 * What one delivery attempt's answer means for a webhook's notification: delivered, tried again
 * (when), or dropped (why). Pure: the sender does what it says.
 */

/** What an attempt got. */
export type AttemptResult =
  | { readonly kind: "answered"; readonly status: number; readonly retryAfter?: string }
  /** A network error, a timeout, a host that did not resolve. */
  | { readonly kind: "failed"; readonly message: string };

/** Why a notification was given up: the `reason` label of the drop metric. */
export type DropReason = "rejected" | "exhausted" | "refused";

export type Decision =
  | { readonly kind: "delivered" }
  | { readonly kind: "retry"; readonly delayMs: number; readonly failure: string }
  | {
      readonly kind: "drop";
      readonly reason: DropReason;
      readonly failure: string;
      readonly status?: number;
    };

export interface RetryPolicy {
  /** Tries per notification, the first included. */
  readonly attempts: number;
  /** Wait before the first retry, doubled each time. */
  readonly backoffMs: number;
  /** The longest `Retry-After` honoured; a longer one waits this long. */
  readonly maxRetryAfterMs: number;
}

/**
 * `Retry-After` (RFC 9110 §10.2.3: delay-seconds or an HTTP date) as milliseconds from `now`;
 * undefined when absent or unreadable. A date in the past is 0.
 */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date names its month; V8's lenient Date.parse would read "-1" as a year.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

const { REQUEST_TIMEOUT, SERVICE_UNAVAILABLE, TOO_MANY_REQUESTS } = HTTP_STATUS;

/** A status worth trying again: a timeout, too many requests, or a fault of the receiver. */
const retriable = (status: number): boolean =>
  status === REQUEST_TIMEOUT || status === TOO_MANY_REQUESTS || status >= 500;
/** Statuses whose `Retry-After` says when to come back. */
const honoursRetryAfter = (status: number): boolean =>
  status === TOO_MANY_REQUESTS || status === SERVICE_UNAVAILABLE;

/**
 * The decision after attempt number `attempt` (1 for the first). A 2xx is delivered. A 4xx other
 * than 408 and 429 is the receiver's "no": dropped at once, never retried (it would say the same
 * again). 408, 429, 5xx, a 3xx (redirects are not followed) and a network failure are tried
 * again until `attempts` are spent: after `Retry-After` for a 429 or 503 that sends one (at most
 * `maxRetryAfterMs`), else after the exponential backoff.
 */
export function decideDelivery(
  result: AttemptResult,
  attempt: number,
  policy: RetryPolicy,
  now: number,
): Decision {
  const backoff = policy.backoffMs * 2 ** (attempt - 1);
  if (result.kind === "failed") {
    if (attempt >= policy.attempts) {
      return { kind: "drop", reason: "exhausted", failure: result.message };
    }
    return { kind: "retry", delayMs: backoff, failure: result.message };
  }
  const { status } = result;
  if (status >= 200 && status < 300) return { kind: "delivered" };
  const failure = `HTTP ${status}`;
  if (status >= 400 && status < 500 && !retriable(status)) {
    return { kind: "drop", reason: "rejected", failure, status };
  }
  if (attempt >= policy.attempts) return { kind: "drop", reason: "exhausted", failure, status };
  const asked = honoursRetryAfter(status) ? retryAfterMs(result.retryAfter, now) : undefined;
  const delayMs = asked === undefined ? backoff : Math.min(asked, policy.maxRetryAfterMs);
  return { kind: "retry", delayMs, failure };
}
