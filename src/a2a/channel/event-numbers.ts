import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import type { AgentExecutionEvent } from "@a2a-js/sdk/server";
import { EVENT_NUMBER_KEY } from "../../contract/replay.js";
import { isTerminalState } from "../../contract/task-states.js";

/**
 * The event numbers of a task (docs/reliability.md): each event of a task carries the next one in
 * its `metadata.eventNumber`, which every binding then carries (SSE `id:`, gRPC, webhooks) and
 * the SDK merges into the stored task's `metadata` (so GetTask says the last number it reflects).
 */

/** A copy of `event` carrying number `n` (the original is not changed). Messages are not numbered. */
export function withEventNumber(event: AgentExecutionEvent, n: number): AgentExecutionEvent {
  switch (event.kind) {
    case "task":
      return { kind: "task", data: { ...event.data, metadata: stamp(event.data.metadata, n) } };
    case "statusUpdate":
      return {
        kind: "statusUpdate",
        data: { ...event.data, metadata: stamp(event.data.metadata, n) },
      };
    case "artifactUpdate":
      return {
        kind: "artifactUpdate",
        data: { ...event.data, metadata: stamp(event.data.metadata, n) },
      };
    case "message":
      return event;
  }
}

const stamp = (metadata: Record<string, unknown> | undefined, n: number) => ({
  ...metadata,
  [EVENT_NUMBER_KEY]: n,
});

/** The number a stream item carries, if any. */
export function eventNumberOf(item: StreamResponse): number | undefined {
  const payload = item.payload;
  if (payload === undefined) return undefined;
  const metadata: unknown = payload.value.metadata;
  if (typeof metadata !== "object" || metadata === null) return undefined;
  const n = (metadata as Record<string, unknown>)[EVENT_NUMBER_KEY];
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** Whether a stream ends after this item, as the SDK's: terminal or input-required. Pure. */
export function endsStream(item: StreamResponse): boolean {
  const payload = item.payload;
  if (payload?.$case === "message") return true;
  if (payload?.$case !== "statusUpdate") return false;
  const state = payload.value.status?.state;
  return isTerminalState(state) || state === TaskState.TASK_STATE_INPUT_REQUIRED;
}

/** Whether an event is a status that waits on the caller (input or auth required). */
export function isPauseEvent(event: AgentExecutionEvent): boolean {
  if (event.kind !== "statusUpdate") return false;
  const state = event.data.status?.state;
  return (
    state === TaskState.TASK_STATE_INPUT_REQUIRED || state === TaskState.TASK_STATE_AUTH_REQUIRED
  );
}

/** Whether an event is a task's terminal status. */
export function isTerminalEvent(event: AgentExecutionEvent): boolean {
  return event.kind === "statusUpdate" && isTerminalState(event.data.status?.state);
}
