import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import {
  a2aState,
  INITIAL_PHASE,
  progressFate,
  transition,
  turnStops,
  type LifecycleEvent,
  type TaskPhase,
} from "../../../../src/a2a/task/lifecycle.js";
import { ENDED_PHASES, LIVE_PHASES } from "../support/phases.js";

const phases: Record<string, TaskPhase> = { ...LIVE_PHASES, ...ENDED_PHASES };
const events: Record<string, LifecycleEvent> = {
  granted: { type: "granted" },
  prompt_sent: { type: "prompt_sent" },
  input_needed: { type: "input_needed" },
  answered: { type: "answered", runActive: true, promptWaiting: false },
  answered_idle: { type: "answered", runActive: false, promptWaiting: false },
  answered_next: { type: "answered", runActive: true, promptWaiting: true },
  answered_idle_next: { type: "answered", runActive: false, promptWaiting: true },
  run_ended: { type: "run_ended" },
  run_started: { type: "run_started" },
  completed: { type: "completed" },
  failed: { type: "failed", reason: "boom" },
  canceled: { type: "canceled" },
  suspended: { type: "suspended" },
};

/** Every allowed move, as "from --event--> to"; anything else is refused. */
const ALLOWED = new Map<string, string>([
  ["queued granted", "starting"],
  ["starting prompt_sent", "running"],
  ["running input_needed", "parked"],
  ["waiting input_needed", "parked"],
  ["parked answered", "running"],
  ["parked answered_idle", "waiting"],
  // Another prompt waits: it is shown in the answered one's place, the task never WORKING between.
  ["parked answered_next", "parked"],
  ["parked answered_idle_next", "parked"],
  ["running run_ended", "waiting"],
  ["waiting run_started", "running"],
  ["running completed", "completed"],
  // A rewind's dry run: it answers the diff and completes with no prompt sent.
  ["starting completed", "completed"],
  ["parked completed", "completed"],
  ["waiting completed", "completed"],
  // The server stops while it waits for an answer: it stays INPUT_REQUIRED for the next server.
  ["parked suspended", "suspended"],
  ...["queued", "starting", "running", "parked", "waiting"].flatMap((from): [string, string][] => [
    [`${from} failed`, "failed"],
    [`${from} canceled`, "canceled"],
  ]),
]);

const nameOf = (p: TaskPhase) => (p.name === "ended" ? p.outcome.state : p.name);

describe("task lifecycle transitions", () => {
  it("starts queued", () => {
    expect(INITIAL_PHASE).toEqual({ name: "queued" });
  });

  for (const [fromName, from] of Object.entries(phases)) {
    for (const [eventName, event] of Object.entries(events)) {
      const expected = ALLOWED.get(`${fromName} ${eventName}`);
      it(`${fromName} --${eventName}--> ${expected ?? "refused"}`, () => {
        const result = transition(from, event);
        if (expected === undefined) {
          expect(result.ok).toBe(false);
        } else {
          expect(result.ok && nameOf(result.phase)).toBe(expected);
        }
      });
    }
  }

  it("an ended task refuses every step, saying it ended and how", () => {
    expect(transition(phases.canceled!, { type: "failed", reason: "late" })).toEqual({
      ok: false,
      reason: "the task has ended (canceled)",
    });
  });

  it("a failure keeps its reason", () => {
    expect(transition(phases.running!, { type: "failed", reason: "timeout" })).toEqual({
      ok: true,
      phase: { name: "ended", outcome: { state: "failed", reason: "timeout" } },
    });
  });

  it("maps phases to the A2A states a client sees: WORKING only once Claude has the prompt", () => {
    expect(Object.values(phases).map(a2aState)).toEqual([
      TaskState.TASK_STATE_SUBMITTED,
      TaskState.TASK_STATE_SUBMITTED,
      TaskState.TASK_STATE_WORKING,
      TaskState.TASK_STATE_INPUT_REQUIRED,
      TaskState.TASK_STATE_WORKING,
      TaskState.TASK_STATE_COMPLETED,
      TaskState.TASK_STATE_FAILED,
      TaskState.TASK_STATE_CANCELED,
      TaskState.TASK_STATE_INPUT_REQUIRED,
    ]);
  });

  it("holds progress while parked, drops it once ended, publishes it otherwise", () => {
    expect(Object.values(phases).map(progressFate)).toEqual([
      "publish",
      "publish",
      "publish",
      "hold",
      "publish",
      "drop",
      "drop",
      "drop",
      "drop",
    ]);
  });

  it("an attached A2A turn stops when the task parks or ends", () => {
    expect(Object.values(phases).map(turnStops)).toEqual([
      false,
      false,
      false,
      true,
      false,
      true,
      true,
      true,
      true,
    ]);
  });
});
