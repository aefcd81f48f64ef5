import { TaskState } from "@a2a-js/sdk";
import { refuse, type Checked } from "../../common/refusal.js";

/**
 * The lifecycle of one A2A task this server runs: every state it can be in, and every move
 * between them, in one pure function. The task object (`server-task.ts`) asks `transition` before
 * each step and re-asks after every await: a task that has ended takes no further step.
 *
 *   queued ──granted──▶ starting ──prompt_sent──▶ running ⇄ parked
 *                                           run_ended │  ▲ run_started (a wake of its work)
 *                                                     ▼  │
 *                                                   waiting ──▶ parked (a late prompt)
 *   parked ──answered, another prompt waiting──▶ parked (the next prompt is shown in its place)
 *   any live state ── failed | canceled ──▶ ended; running | parked | waiting ── completed ──▶ ended
 *   parked ── suspended (the server stops) ──▶ ended (suspended: still INPUT_REQUIRED)
 *
 * - queued: another task holds its context (SUBMITTED, `queued` status).
 * - starting: it heads its context's queue; attachments are written and the prompt handed to the
 *   Claude session, which may first have to interrupt a wake (still SUBMITTED).
 * - running: Claude has the prompt (WORKING).
 * - parked: Claude waits for the client's answer to a question or permission prompt
 *   (INPUT_REQUIRED); an answer moves it back to running (waiting, if no run of it is active),
 *   or keeps it parked when another prompt waits: that one is shown in its place. Nothing shows
 *   it WORKING meanwhile (`progressFate`).
 * - waiting: its run ended, but background work it started still runs (`backgroundTasks:
 *   "wait"`): still WORKING. The wake that work causes is a run of this task again.
 * - ended: completed, failed or canceled; exactly one terminal status was published. Or
 *   suspended: the server stopped while it was parked; it publishes nothing more, so the store
 *   keeps it INPUT_REQUIRED for the next server, whose answer resumes the conversation
 *   (docs/tasks.md "Answers across a restart").
 *
 * A task the server creates for a wake no task owns (an autonomous task) starts running.
 */
export type TaskPhase =
  | { readonly name: "queued" }
  | { readonly name: "starting" }
  | { readonly name: "running" }
  | { readonly name: "parked" }
  | { readonly name: "waiting" }
  | { readonly name: "ended"; readonly outcome: TaskOutcome };

export type TaskOutcome =
  | { readonly state: "completed" }
  | { readonly state: "failed"; readonly reason: string }
  | { readonly state: "canceled" }
  | { readonly state: "suspended" };

export type LifecycleEvent =
  /** The task heads its context's queue. */
  | { readonly type: "granted" }
  /** The session sent the prompt to the runtime. */
  | { readonly type: "prompt_sent" }
  /** A question or permission prompt is shown to the client. */
  | { readonly type: "input_needed" }
  /**
   * The shown prompt was answered (or settled without an answer). `promptWaiting`: another
   * prompt of the task is pending, to be shown next.
   */
  | { readonly type: "answered"; readonly runActive: boolean; readonly promptWaiting: boolean }
  /** Its run ended with background work of its own still running (`backgroundTasks: "wait"`). */
  | { readonly type: "run_ended" }
  /** A run of its work began: the wake its background work caused. */
  | { readonly type: "run_started" }
  /** Its work is over: no run active, no background work left. */
  | { readonly type: "completed" }
  /** Bad input, an inbox failure, a failed or interrupted run, a timeout, loop protection. */
  | { readonly type: "failed"; readonly reason: string }
  | { readonly type: "canceled" }
  /** The server is stopping while it waits for an answer: it stays INPUT_REQUIRED in the store. */
  | { readonly type: "suspended" };

export type Transition = Checked<{ readonly phase: TaskPhase }>;

export const INITIAL_PHASE: TaskPhase = { name: "queued" };
/** A task the server creates for a wake no task owns starts with that run under way. */
export const AUTONOMOUS_PHASE: TaskPhase = { name: "running" };

type LivePhase = Exclude<TaskPhase["name"], "ended">;
type Step = Exclude<
  LifecycleEvent["type"],
  "failed" | "canceled" | "answered" | "completed" | "suspended"
>;

/** The moves other than the endings, the answer and completion, by phase and event. */
const MOVES: Readonly<Record<Step, Partial<Record<LivePhase, LivePhase>>>> = {
  granted: { queued: "starting" },
  prompt_sent: { starting: "running" },
  // Waiting too: a background subagent of its run may ask after the run ended.
  input_needed: { running: "parked", waiting: "parked" },
  run_ended: { running: "waiting" },
  run_started: { waiting: "running" },
};

const notAStep = (phase: TaskPhase, event: LifecycleEvent): Transition =>
  refuse(`${event.type} is not a step a ${phase.name} task takes`);

const to = (name: LivePhase): Transition => ({ ok: true, phase: { name } });

export function transition(phase: TaskPhase, event: LifecycleEvent): Transition {
  if (phase.name === "ended") {
    return refuse(`the task has ended (${phase.outcome.state})`);
  }
  switch (event.type) {
    case "failed":
      return {
        ok: true,
        phase: { name: "ended", outcome: { state: "failed", reason: event.reason } },
      };
    case "canceled":
      return { ok: true, phase: { name: "ended", outcome: { state: "canceled" } } };
    case "suspended":
      return phase.name === "parked"
        ? { ok: true, phase: { name: "ended", outcome: { state: "suspended" } } }
        : notAStep(phase, event);
    case "completed":
      // A run may end while a prompt is shown (a subagent's request outlived its turn); a
      // rewind's dry run completes before any prompt (docs/control.md).
      return phase.name === "running" ||
        phase.name === "parked" ||
        phase.name === "waiting" ||
        phase.name === "starting"
        ? { ok: true, phase: { name: "ended", outcome: { state: "completed" } } }
        : notAStep(phase, event);
    case "answered":
      if (phase.name !== "parked") return notAStep(phase, event);
      if (event.promptWaiting) return to("parked");
      return to(event.runActive ? "running" : "waiting");
    case "granted":
    case "prompt_sent":
    case "input_needed":
    case "run_ended":
    case "run_started": {
      const next = MOVES[event.type][phase.name];
      return next === undefined ? notAStep(phase, event) : to(next);
    }
  }
}

/** The A2A state a client sees for a phase. */
export function a2aState(phase: TaskPhase): TaskState {
  switch (phase.name) {
    case "queued":
    case "starting":
      return TaskState.TASK_STATE_SUBMITTED;
    case "running":
    case "waiting":
      return TaskState.TASK_STATE_WORKING;
    case "parked":
      return TaskState.TASK_STATE_INPUT_REQUIRED;
    case "ended":
      switch (phase.outcome.state) {
        case "completed":
          return TaskState.TASK_STATE_COMPLETED;
        case "failed":
          return TaskState.TASK_STATE_FAILED;
        case "canceled":
          return TaskState.TASK_STATE_CANCELED;
        case "suspended":
          return TaskState.TASK_STATE_INPUT_REQUIRED;
      }
  }
}

/**
 * What becomes of a progress status (WORKING: a tool call, finished background work, an
 * interrupted wake) a task emits in a phase. A parked task's last status is the prompt it asks,
 * in the store and in every subscriber's stream: its progress is held until an answer resumes it
 * (`hold`), then published. An ended task publishes nothing more (`drop`).
 */
export type ProgressFate = "publish" | "hold" | "drop";

export function progressFate(phase: TaskPhase): ProgressFate {
  switch (phase.name) {
    case "parked":
      return "hold";
    case "ended":
      return "drop";
    case "queued":
    case "starting":
    case "running":
    case "waiting":
      return "publish";
  }
}

/** The phases in which the A2A turn attached to a task stops: the client has something to do. */
export const turnStops = (phase: TaskPhase): boolean =>
  phase.name === "parked" || phase.name === "ended";
