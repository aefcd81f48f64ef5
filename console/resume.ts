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

/**
 * A task's whole story from its kept events (docs/reliability.md: `SubscribeToTask` from cursor
 * `0`, also on a finished task), so a task opened later shows its tool calls and their output as
 * a live follower saw them. A replay stops after each input-required status: it is opened again
 * from there until it reaches `target` (the task's own `eventNumber`), then goes on live to the
 * end of the turn. False when the server keeps no events of it (replay off, or expired): the page
 * then shows the stored task.
 */
export async function replayTask(
  open: Opener,
  target: number,
  apply: (event: StreamResponse) => void,
  signal: AbortSignal,
): Promise<boolean> {
  let cursor = 0;
  let any = false;
  for (;;) {
    const before = cursor;
    let ended = false;
    try {
      for await (const event of open(cursor)) {
        if (signal.aborted) return true;
        cursor = eventNumberOf(event) ?? cursor;
        any = true;
        apply(event);
        if (endsStream(event)) {
          ended = true;
          break;
        }
      }
    } catch (err) {
      if (!any) return false;
      throw err;
    }
    if ((ended && cursor >= target) || cursor === before || signal.aborted) return any;
  }
}
