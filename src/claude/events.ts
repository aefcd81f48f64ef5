import type { Logger } from "pino";
import type { BackgroundTask } from "./background-tasks.js";
import type { FailureCause, NormalizedEvent } from "./normalize.js";
import type { RunLifecycle, RunOrigin, RunOutcome, SessionStatus } from "./run-tracker.js";
import type { TimelineEntry } from "./timeline.js";
import type { TurnStateName } from "./turn-state.js";

/** The one terminal item a `stream()` ends with. */
export type RunTerminalEvent =
  | { kind: "run_completed"; runId: string; text: string }
  /** `reason` is the runtime's text (for the log); `cause`, when known, what went wrong. */
  | { kind: "run_failed"; runId: string; reason: string; cause?: FailureCause }
  | { kind: "run_interrupted"; runId: string; reason: string; text: string };

/** The prompt left the session's queue: the runtime has it (a run's first item once sent). */
export interface RunSentEvent {
  kind: "prompt_sent";
  runId: string;
}

/** The runtime took steering messages of the run (their uuids, as `ClaudeSession.steer` gave them). */
export interface RunSteeredEvent {
  kind: "steered";
  runId: string;
  uuids: readonly string[];
}

export type RunStreamEvent = NormalizedEvent | RunSentEvent | RunSteeredEvent | RunTerminalEvent;

/** Everything the layer above may want to mirror, in the order it happened. */
export type SessionEvent =
  | {
      type: "run_started";
      runId: string;
      origin: RunOrigin;
      /** Autonomous runs: the background task ids whose completion woke the runtime. */
      causes?: readonly string[];
      /** Foreground runs: the uuid their prompt is stored under in the transcript. */
      promptUuid?: string;
    }
  | { type: "run_state"; runId: string; origin: RunOrigin; from: RunLifecycle; to: RunLifecycle }
  | {
      type: "run_event";
      runId: string;
      origin: RunOrigin;
      event: NormalizedEvent;
      /** The run had already ended: the event is attributed to it, its lifecycle is untouched. */
      late: boolean;
    }
  | { type: "run_ended"; runId: string; origin: RunOrigin; outcome: RunOutcome }
  /** The runtime took steering messages of a run (`ClaudeSession.steer`). */
  | { type: "run_steered"; runId: string; uuids: readonly string[] }
  | { type: "status"; status: SessionStatus; previous: SessionStatus }
  | { type: "turn_state"; from: TurnStateName; to: TurnStateName; reason: string }
  | { type: "timeline"; entry: TimelineEntry }
  | { type: "background_task_started"; task: BackgroundTask }
  | { type: "background_task_attributed"; task: BackgroundTask }
  | { type: "background_task_finished"; task: BackgroundTask }
  /** Notifications of finished background tasks the runtime folded into a foreground turn. */
  | { type: "background_notifications_folded"; taskIds: readonly string[]; runId: string }
  | {
      type: "permission_requested";
      requestId: string;
      runId?: string;
      toolName: string;
      toolUseId: string;
    }
  | { type: "permission_resolved"; requestId: string; runId?: string }
  | { type: "metadata"; event: NormalizedEvent; runId?: string }
  | { type: "session_id"; sessionId: string }
  | { type: "closed"; reason: string };

export type SessionListener = (event: SessionEvent) => void;

/**
 * Synchronous fan-out, in order; a throwing listener is logged and never reaches the pump.
 * Listeners call the session back (a prompt sent on `run_started`); the events that call causes
 * are queued and delivered after the current event has reached every listener, so all listeners
 * see one order: the order things happened.
 */
export class SessionEmitter {
  /**
   * Replaced, never changed, on (un)subscribe: a delivery walks the array it started with, so a
   * listener added or removed meanwhile takes effect from the next event, without a copy per event.
   */
  private listeners: readonly SessionListener[] = [];
  private readonly queue: SessionEvent[] = [];
  private delivering = false;

  constructor(private readonly logger: Logger) {}

  subscribe(listener: SessionListener): () => void {
    if (!this.listeners.includes(listener)) this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  emit(event: SessionEvent): void {
    if (this.delivering) {
      this.queue.push(event);
      return;
    }
    this.delivering = true;
    try {
      this.deliver(event);
      // Events emitted by listeners meanwhile, in order (read by index: no shift per event).
      for (let i = 0; i < this.queue.length; i++) this.deliver(this.queue[i] as SessionEvent);
    } finally {
      this.queue.length = 0;
      this.delivering = false;
    }
  }

  private deliver(event: SessionEvent): void {
    const listeners = this.listeners;
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        this.logger.error({ err: error, eventType: event.type }, "session listener threw");
      }
    }
  }
}
