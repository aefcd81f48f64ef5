/** One task phase of each kind, by name, for the table tests of the task's pure decisions. */
import type { TaskPhase } from "../../../../src/a2a/task/lifecycle.js";

/** Each phase a task can be in before it ends. */
export const LIVE_PHASES = {
  queued: { name: "queued" },
  starting: { name: "starting" },
  running: { name: "running" },
  parked: { name: "parked" },
  waiting: { name: "waiting" },
} as const satisfies Record<string, TaskPhase>;

/** The ended phase of each outcome. */
export const ENDED_PHASES = {
  completed: { name: "ended", outcome: { state: "completed" } },
  failed: { name: "ended", outcome: { state: "failed", reason: "boom" } },
  canceled: { name: "ended", outcome: { state: "canceled" } },
  suspended: { name: "ended", outcome: { state: "suspended" } },
} as const satisfies Record<string, TaskPhase>;
