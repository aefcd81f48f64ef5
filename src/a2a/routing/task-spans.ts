import type { TaskRef } from "../../contract/messages.js";
import type { TaskPhase } from "../task/lifecycle.js";
import type { TraceSpan, Tracing } from "../../tracing/tracing.js";

/**
 * A task's span (`a2a.task`): a child of the span that caused the task (its request's, or for an
 * autonomous task the span of the task whose work woke Claude), else the root of a trace.
 */
export function taskSpan(
  tracing: Tracing,
  parent: TraceSpan | undefined,
  ref: TaskRef,
  owner: string,
  origin: "client" | "autonomous",
): TraceSpan {
  const attributes = {
    "a2a.task.id": ref.taskId,
    "a2a.context.id": ref.contextId,
    "a2a.caller": owner,
    "a2a.task.origin": origin,
  };
  return parent ? parent.child("a2a.task", attributes) : tracing.root("a2a.task", attributes);
}

/** Ends a task's span with the state the task ended in (failed: with its reason). */
export function endTaskSpan(span: TraceSpan, phase: TaskPhase): void {
  const outcome = phase.name === "ended" ? phase.outcome : undefined;
  span.set({ "a2a.task.state": outcome?.state ?? phase.name });
  if (outcome?.state === "failed") span.fail(outcome.reason);
  span.end();
}
