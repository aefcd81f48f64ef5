import { ANONYMOUS_OWNER } from "../../identity/caller.js";
import type { LimitName, Refusal } from "../../limits/decisions.js";
import { retryAfterSeconds } from "../../limits/decisions.js";

/**
 * What a caller is told when a per-caller limit refuses its request or stops its task: the
 * message, the `google.rpc.ErrorInfo` beside it (same on both bindings) and the status text.
 */

/** `ErrorInfo.domain` of the refusals this server adds to the protocol's own. */
export const ERROR_DOMAIN = "claude-a2a";

/** `ErrorInfo.reason` per limit. */
export const LIMIT_REASON: Readonly<Record<LimitName, string>> = {
  tasksPerMinute: "TASK_RATE_LIMIT_EXCEEDED",
  concurrentTasks: "CONCURRENT_TASK_LIMIT_EXCEEDED",
  dailyBudgetUsd: "DAILY_BUDGET_EXCEEDED",
};

/**
 * The JSON-RPC `error.code` of a refusal: A2A 1.0 defines none for "not now, later", and reusing
 * one of its codes would say something false (UnsupportedOperation: never retry). So it is from
 * JSON-RPC's implementation-defined server range; the ErrorInfo reason is what identifies it.
 */
export const LIMIT_JSONRPC_CODE = -32029;

/** The REST binding's HTTP status and `google.rpc.Status` name of a refusal. */
export const LIMIT_HTTP_STATUS = 429;
export const LIMIT_REST_STATUS = "RESOURCE_EXHAUSTED";

const ERROR_INFO_TYPE = "type.googleapis.com/google.rpc.ErrorInfo";

export interface LimitErrorInfo {
  readonly "@type": typeof ERROR_INFO_TYPE;
  readonly reason: string;
  readonly domain: typeof ERROR_DOMAIN;
  /** ErrorInfo metadata is strings only. */
  readonly metadata: Readonly<Record<string, string>>;
}

/** `$0.00033`, `$0.50`, `$12.00`: dollars to the precision a small budget needs. */
export function usd(amount: number): string {
  if (amount >= 1) return `$${amount.toFixed(2)}`;
  const digits = amount
    .toFixed(8)
    .replace(/0+$/, "")
    .replace(/\.(\d?)$/, (_, d: string) => `.${d.padEnd(2, "0")}`);
  return `$${digits}`;
}

/** `42 s`, `5 min`, `3 h 12 min`. */
export function duration(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.ceil(s / 60);
  if (min < 60) return `${min} min`;
  const rest = min % 60;
  return `${Math.floor(min / 60)} h${rest === 0 ? "" : ` ${rest} min`}`;
}

const at = (ms: number) => new Date(ms).toISOString();

/** A caller's scope as a sentence names it. */
const who = (scope: string) =>
  scope === ANONYMOUS_OWNER ? `the anonymous caller (${scope})` : scope;

/** The message of a refused request: which limit, the caller's figures, and when it resets. */
export function limitMessage(caller: string, refusal: Refusal, now: number): string {
  const head = `Caller limit reached (${refusal.limit}): ${who(caller)}`;
  switch (refusal.limit) {
    case "tasksPerMinute":
      return (
        `${head} may start at most ${refusal.max} task(s) per minute; try again in ` +
        `${duration(refusal.resetsAt - now)} (at ${at(refusal.resetsAt)}).`
      );
    case "concurrentTasks":
      return (
        `${head} may have at most ${refusal.max} task(s) at once and has ${refusal.working} ` +
        "not yet ended; try again when one of them ends."
      );
    case "dailyBudgetUsd":
      return (
        `${head} has spent ${usd(refusal.spentUsd)} today of a daily budget of ` +
        `${usd(refusal.max)}; new tasks are refused until it resets at 00:00 UTC ` +
        `(${at(refusal.resetsAt)}, in ${duration(refusal.resetsAt - now)}).`
      );
  }
}

/** The ErrorInfo of a refused request: `reason` per limit, the figures in `metadata`. */
export function limitErrorInfo(caller: string, refusal: Refusal, now: number): LimitErrorInfo {
  const metadata: Record<string, string> = {
    limit: refusal.limit,
    caller,
    max: String(refusal.max),
  };
  const retryAfter = retryAfterSeconds(refusal, now);
  if (retryAfter !== undefined) metadata.retryAfterSeconds = String(retryAfter);
  switch (refusal.limit) {
    case "tasksPerMinute":
      metadata.resetsAt = at(refusal.resetsAt);
      break;
    case "concurrentTasks":
      metadata.working = String(refusal.working);
      break;
    case "dailyBudgetUsd":
      metadata.resetsAt = at(refusal.resetsAt);
      metadata.spentUsd = String(refusal.spentUsd);
      break;
  }
  return {
    "@type": ERROR_INFO_TYPE,
    reason: LIMIT_REASON[refusal.limit],
    domain: ERROR_DOMAIN,
    metadata,
  };
}

/**
 * The COMPLETED status text of a task that ran while its caller's spend reached the daily
 * budget: it finished the turn under way and did nothing more.
 */
export function budgetStopText(
  caller: string,
  reached: Extract<Refusal, { limit: "dailyBudgetUsd" }>,
  stoppedBackground: boolean,
): string {
  return (
    `Daily budget reached: ${who(caller)} has spent ${usd(reached.spentUsd)} today of a daily ` +
    `budget of ${usd(reached.max)} (dailyBudgetUsd), so this task stopped after its turn` +
    (stoppedBackground ? " and its background work was stopped" : "") +
    `; new tasks are refused until 00:00 UTC (${at(reached.resetsAt)}).`
  );
}
