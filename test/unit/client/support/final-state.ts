/** What the client's end-of-turn tests share: a status event of task `t1`, and what the turn's end prints. */
import type { StreamResponse, TaskState } from "@a2a-js/sdk";
import { makeColors } from "../../../../src/client/colors.js";
import { newView, renderEvent } from "../../../../src/client/render.js";
import { renderEnd } from "../../../../src/client/render-end.js";

/** A status update of task `t1` in context `ctx`, with this metadata. */
export const statusEvent = (
  state: TaskState,
  metadata?: Record<string, unknown>,
): StreamResponse => ({
  payload: {
    $case: "statusUpdate",
    value: {
      taskId: "t1",
      contextId: "ctx",
      status: { state, message: undefined, timestamp: undefined },
      metadata,
    },
  },
});

/** The stdout text the client prints at the end of a turn that streamed `events` (no colours). */
export function endText(events: StreamResponse[], cost?: boolean): string {
  const c = makeColors(false);
  const view = newView();
  for (const e of events) renderEvent(view, e, c);
  return renderEnd(view, c, undefined, cost === undefined ? {} : { cost })
    .filter((o) => o.to === "out")
    .map((o) => o.text)
    .join("");
}
