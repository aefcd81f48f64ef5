/**
 * How the console follows a stream through a dropped connection (docs/reliability.md): from the
 * last event number it received, as `Last-Event-ID`, the same message sent again for a send.
 */
import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import { isTerminal } from "./format.js";

/** A stream of the open task from a cursor (the last event number received; none: the start). */
export type Opener = (cursor: number | undefined) => AsyncGenerator<StreamResponse>;

/** How often in a row a dropped stream is resumed before the console shows the error. */
export const MAX_RESUMES = 5;

/** The `metadata.eventNumber` of an event (docs/reliability.md), if any. */
export function eventNumberOf(event: StreamResponse): number | undefined {
  const n: unknown = event.payload?.value.metadata?.eventNumber;
  return typeof n === "number" ? n : undefined;
}

/** Whether a stream is over after this event: terminal or input-required. */
export function endsStream(event: StreamResponse): boolean {
  if (event.payload?.$case !== "statusUpdate") return event.payload?.$case === "message";
  const state = event.payload.value.status?.state;
  return isTerminal(state) || state === TaskState.TASK_STATE_INPUT_REQUIRED;
}

/** The request options of a stream resumed from `cursor` (its `Last-Event-ID`). */
export const resumeOptions = (control: AbortController, cursor: number | undefined) => ({
  signal: control.signal,
  ...(cursor !== undefined && { serviceParameters: { "last-event-id": String(cursor) } }),
});
