import { HTTP_STATUS, JSONRPC_CODE } from "./wire-codes.js";
import { TEXT } from "./texts.js";
import { formatUsd as usd } from "./usage.js";

/**
 * What a caller is told when a per-caller limit refuses its request or stops its task: the
 * refusal's shape, its message, the `google.rpc.ErrorInfo` beside it (the same on both bindings)
 * and how each binding carries it. The decisions that make a refusal are in src/limits/.
 */

export type LimitName = "tasksPerMinute" | "concurrentTasks" | "dailyBudgetUsd";

/** Which limit refuses a new task, with the caller's figures and when it resets (epoch ms). */
export type Refusal =
  | {
      readonly limit: "dailyBudgetUsd";
      readonly max: number;
      readonly spentUsd: number;
      /** The next 00:00 UTC. */
      readonly resetsAt: number;
    }
  | {
      readonly limit: "concurrentTasks";
      readonly max: number;
      readonly working: number;
    }
  | {
      readonly limit: "tasksPerMinute";
      readonly max: number;
      /** When the oldest start that keeps the window full leaves it. */
      readonly resetsAt: number;
    };

export type BudgetReached = Extract<Refusal, { limit: "dailyBudgetUsd" }>;

/** Who is refused: its scope (`token:ci`, `unknown`), and whether that is the anonymous caller. */
export interface LimitedCaller {
  readonly scope: string;
  readonly anonymous: boolean;
}

/** `ErrorInfo.domain` of the refusals this server adds to the protocol's own. */
export const ERROR_DOMAIN = "claude-a2a";

/** `ErrorInfo.reason` per limit. */
export const LIMIT_REASON: Readonly<Record<LimitName, string>> = {
  tasksPerMinute: "TASK_RATE_LIMIT_EXCEEDED",
  concurrentTasks: "CONCURRENT_TASK_LIMIT_EXCEEDED",
  dailyBudgetUsd: "DAILY_BUDGET_EXCEEDED",
};

/** The JSON-RPC `error.code` of a refusal (why this one: `JSONRPC_CODE.LIMIT_EXCEEDED`). */
export const LIMIT_JSONRPC_CODE = JSONRPC_CODE.LIMIT_EXCEEDED;

/**
 * Key in `ServerCallContext.state` under which the request handler leaves the ErrorInfo of a
 * request it refused by a limit, for the binding to answer it in its own shape whatever the SDK
 * made of the error (its v1.0 and v0.3 transports map an error they do not know differently).
 */
export const REFUSAL_STATE_KEY = "callerLimitRefusal";

/** The REST binding's HTTP status and `google.rpc.Status` name of a refusal. */
export const LIMIT_HTTP_STATUS = HTTP_STATUS.TOO_MANY_REQUESTS;
export const LIMIT_REST_STATUS = "RESOURCE_EXHAUSTED";

const ERROR_INFO_TYPE = "type.googleapis.com/google.rpc.ErrorInfo";

export interface LimitErrorInfo {
  readonly "@type": typeof ERROR_INFO_TYPE;
  readonly reason: string;
  readonly domain: typeof ERROR_DOMAIN;
  /** ErrorInfo metadata is strings only. */
  readonly metadata: Readonly<Record<string, string>>;
}

/** Whole seconds until the refusal's limit resets (at least 1); undefined when no time is known. */
export function retryAfterSeconds(refusal: Refusal, now: number): number | undefined {
  switch (refusal.limit) {
    case "dailyBudgetUsd":
    case "tasksPerMinute":
      return Math.max(1, Math.ceil((refusal.resetsAt - now) / 1000));
    case "concurrentTasks":
      return undefined;
  }
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

/** A caller as a sentence names it. */
const who = (caller: LimitedCaller) => (caller.anonymous ? TEXT.anonymousCaller : caller.scope);

/** The message of a refused request: which limit, the caller's figures, and when it resets. */
export function limitMessage(caller: LimitedCaller, refusal: Refusal, now: number): string {
  switch (refusal.limit) {
    case "tasksPerMinute":
      return TEXT.tasksPerMinuteReached(
        who(caller),
        refusal.max,
        duration(refusal.resetsAt - now),
        at(refusal.resetsAt),
      );
    case "concurrentTasks":
      return TEXT.concurrentTasksReached(who(caller), refusal.max, refusal.working);
    case "dailyBudgetUsd":
      return TEXT.dailyBudgetReached(
        who(caller),
        usd(refusal.spentUsd),
        usd(refusal.max),
        at(refusal.resetsAt),
        duration(refusal.resetsAt - now),
      );
  }
}

/** The ErrorInfo of a refused request: `reason` per limit, the figures in `metadata`. */
export function limitErrorInfo(
  caller: LimitedCaller,
  refusal: Refusal,
  now: number,
): LimitErrorInfo {
  const metadata: Record<string, string> = {
    limit: refusal.limit,
    caller: caller.scope,
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
 * The `budget_reached` text of a task that ran while its caller's spend reached the daily
 * budget: it finished the turn under way and did nothing more.
 */
export function budgetStopText(
  caller: LimitedCaller,
  reached: BudgetReached,
  stoppedBackground: boolean,
): string {
  return TEXT.budgetStop(
    who(caller),
    usd(reached.spentUsd),
    usd(reached.max),
    at(reached.resetsAt),
    stoppedBackground,
  );
}
