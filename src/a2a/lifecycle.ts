import { TaskState } from "@a2a-js/sdk";

/**
 * The lifecycle of one A2A task this server runs: every state it can be in, and every move
 * between them, in one pure function. The task object (`server-task.ts`) asks `transition` before
 * each step and re-asks after every await: a task that has ended takes no further step.
 *
 *   queued ──granted──▶ starting ──prompt_sent──▶ running ⇄ parked
 *      │                   │                         │        │
 *      └───────────────────┴──── failed | canceled ──┴────────┴──▶ ended
 *                                     running ──completed──▶ ended
 *
 * - queued: another task holds its context (SUBMITTED, `queued` status).
 * - starting: it heads its context's queue; attachments are written and the prompt handed to the
 *   Claude session, which may first have to interrupt a wake (still SUBMITTED).
 * - running: Claude has the prompt (WORKING).
 * - parked: Claude waits for the client's answer to a question or permission prompt
 *   (INPUT_REQUIRED); an answer moves it back to running.
 * - ended: completed, failed or canceled; exactly one terminal status was published.
 */
export type TaskPhase =
  | { readonly name: "queued" }
  | { readonly name: "starting" }
  | { readonly name: "running" }
  | { readonly name: "parked" }
  | { readonly name: "ended"; readonly outcome: TaskOutcome };

export type TaskOutcome =
  | { readonly state: "completed" }
  | { readonly state: "failed"; readonly reason: string }
  | { readonly state: "canceled" };

export type LifecycleEvent =
  /** The task heads its context's queue. */
  | { readonly type: "granted" }
  /** The session sent the prompt to the runtime. */
  | { readonly type: "prompt_sent" }
  /** A question or permission prompt is shown to the client. */
  | { readonly type: "input_needed" }
  /** The shown prompt was answered (or settled without an answer). */
  | { readonly type: "answered" }
  /** The run completed with a result. */
  | { readonly type: "completed" }
  /** Bad input, an inbox failure, a failed or interrupted run, a timeout, loop protection. */
  | { readonly type: "failed"; readonly reason: string }
  | { readonly type: "canceled" };

export type Transition =
  { readonly ok: true; readonly phase: TaskPhase } | { readonly ok: false; readonly why: string };

export const INITIAL_PHASE: TaskPhase = { name: "queued" };

const refuse = (phase: TaskPhase, event: LifecycleEvent): Transition => ({
  ok: false,
  why: `${event.type} is not a step a ${phase.name} task takes`,
});

export function transition(phase: TaskPhase, event: LifecycleEvent): Transition {
  if (phase.name === "ended")
    return { ok: false, why: `the task has ended (${phase.outcome.state})` };
  switch (event.type) {
    case "granted":
      return phase.name === "queued"
        ? { ok: true, phase: { name: "starting" } }
        : refuse(phase, event);
    case "prompt_sent":
      return phase.name === "starting"
        ? { ok: true, phase: { name: "running" } }
        : refuse(phase, event);
    case "input_needed":
      return phase.name === "running"
        ? { ok: true, phase: { name: "parked" } }
        : refuse(phase, event);
    case "answered":
      return phase.name === "parked"
        ? { ok: true, phase: { name: "running" } }
        : refuse(phase, event);
    case "completed":
      // A run may end while a prompt is shown (a subagent's request outlived its turn).
      return phase.name === "running" || phase.name === "parked"
        ? { ok: true, phase: { name: "ended", outcome: { state: "completed" } } }
        : refuse(phase, event);
    case "failed":
      return {
        ok: true,
        phase: { name: "ended", outcome: { state: "failed", reason: event.reason } },
      };
    case "canceled":
      return { ok: true, phase: { name: "ended", outcome: { state: "canceled" } } };
  }
}

/** The A2A state a client sees for a phase. */
export function a2aState(phase: TaskPhase): TaskState {
  switch (phase.name) {
    case "queued":
    case "starting":
      return TaskState.TASK_STATE_SUBMITTED;
    case "running":
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
      }
  }
}

/** The phases in which the A2A turn attached to a task stops: the client has something to do. */
export const turnStops = (phase: TaskPhase): boolean =>
  phase.name === "parked" || phase.name === "ended";
