import type { SteerPriority } from "../../claude/index.js";

/** What the request guard knows when a message names a task that is not parked. */
export interface SteerQuestion {
  /** The client activated the control extension (its `A2A-Extensions` header names it). */
  readonly extensionActive: boolean;
  /** Steering is on for this agent (`server.control.steer`). */
  readonly enabled: boolean;
  /** The message's `metadata.steer` (absent: `"next"`). */
  readonly steer: unknown;
}

/**
 * What a message for a WORKING task is: without the control extension (or with steering off),
 * refused exactly as it always was (one turn at a time); with it, a steering message of the
 * priority `metadata.steer` asks, or a bad request when that is not a priority. Pure.
 */
export type SteerDecision =
  | { readonly kind: "refuse_working" }
  | { readonly kind: "bad_request"; readonly reason: string }
  | { readonly kind: "steer"; readonly priority: SteerPriority };

export const STEER_PRIORITIES: readonly SteerPriority[] = ["next", "now"];

export function steerDecision(q: SteerQuestion): SteerDecision {
  if (!q.extensionActive || !q.enabled) return { kind: "refuse_working" };
  if (q.steer === undefined || q.steer === null) return { kind: "steer", priority: "next" };
  if (typeof q.steer === "string" && (STEER_PRIORITIES as readonly string[]).includes(q.steer)) {
    return { kind: "steer", priority: q.steer as SteerPriority };
  }
  return {
    kind: "bad_request",
    reason: `metadata.steer must be "next" or "now" (got ${JSON.stringify(q.steer)})`,
  };
}
