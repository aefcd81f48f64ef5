import type { Logger } from "pino";
import type { BackgroundTask } from "./background-tasks.js";
import type { NormalizedEvent } from "./normalize.js";
import type { RunLifecycle, RunOrigin, RunOutcome, SessionStatus } from "./run-tracker.js";
import type { TimelineEntry } from "./timeline.js";
import type { TurnStateName } from "./turn-state.js";

/** The one terminal item a `stream()` ends with. */
export type RunTerminalEvent =
  | { kind: "run_completed"; runId: string; text: string }
  | { kind: "run_failed"; runId: string; reason: string }
  | { kind: "run_interrupted"; runId: string; reason: string; text: string };

export type RunStreamEvent = NormalizedEvent | RunTerminalEvent;

/** Everything the layer above may want to mirror, in the order it happened. */
export type SessionEvent =
  | { type: "run_started"; runId: string; origin: RunOrigin }
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
  | { type: "status"; status: SessionStatus; previous: SessionStatus }
  | { type: "turn_state"; from: TurnStateName; to: TurnStateName; reason: string }
  | { type: "timeline"; entry: TimelineEntry }
  | { type: "background_task_started"; task: BackgroundTask }
  | { type: "background_task_attributed"; task: BackgroundTask }
  | { type: "background_task_finished"; task: BackgroundTask }
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

/** Synchronous fan-out; a throwing listener is logged and never reaches the pump. */
export class SessionEmitter {
  private readonly listeners = new Set<SessionListener>();

  constructor(private readonly logger: Logger) {}

  subscribe(listener: SessionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: SessionEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.logger.error({ err: error, eventType: event.type }, "session listener threw");
      }
    }
  }
}
