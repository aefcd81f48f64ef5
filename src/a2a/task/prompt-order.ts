/**
 * A permission prompt or question comes after the `tool_use` status of the call that asks: a
 * client that stops reading at `input-required` (the terminal client's `send`, any blocking
 * client) must have seen which call asks. The runtime writes the call's assistant frame before
 * its `can_use_tool` request, but the SDK serves control requests as soon as it reads them, ahead
 * of the message queue the session pumps; and the task reads its run's frames from a queue of
 * its own. So the request can reach the task first: it then waits, queued and unshown, until the
 * run's output has handled the frame (task-runs.ts tries again after each assistant frame).
 */

/** The call a prompt is about, as the runtime's `canUseTool` names it. */
export interface PromptCall {
  readonly runId?: string | undefined;
  readonly toolUseId?: string | undefined;
}

/** What the decision reads of a run's output: the tool calls whose frame it has handled. */
export interface ToolCallsSeen {
  hasSeenToolUse(toolUseId: string): boolean;
}

/**
 * True when the prompt may be shown now. It waits only for a frame that will come: the call's
 * run is one of the task's active runs (its output reads that run's frames). A prompt that names
 * no call (a peer's, passed up) or a run the task does not read (ended, or a late one) is shown
 * at once, as before.
 */
export function promptMayShow(
  call: PromptCall | undefined,
  runs: ReadonlyMap<string, ToolCallsSeen>,
): boolean {
  if (call?.runId === undefined || call.toolUseId === undefined || call.toolUseId === "") {
    return true;
  }
  const output = runs.get(call.runId);
  return output === undefined || output.hasSeenToolUse(call.toolUseId);
}
