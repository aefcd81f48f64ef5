/**
 * Statuses the timeline folds instead of listing one by one: a tool call's `tool_use` and
 * `tool_result` (into the call), and a delivery's `delivery` statuses (into the entry of their
 * round or step: delivery-model.ts). Pure: they change the model only.
 */
import { KIND } from "../src/contract/kinds.js";
import { TOOL_IO_KEYS } from "../src/contract/tool-io.js";
import { addStage, stageOf } from "./delivery-model.js";
import type { TaskModel } from "./task-model.js";

/** A `tool_use` or `tool_result` status folded into its tool call; false for any other. */
export function toolEvent(
  model: TaskModel,
  kind: string | undefined,
  meta: Record<string, unknown>,
  text: string,
): boolean {
  const id = meta.toolUseId;
  if (typeof id !== "string" || (kind !== KIND.toolUse && kind !== KIND.toolResult)) return false;
  const outcome = model.tools.get(id) ?? {};
  model.tools.set(id, outcome);
  if (kind === KIND.toolResult) {
    const o = meta[TOOL_IO_KEYS.output];
    outcome.output = typeof o === "string" ? o : "";
    outcome.isError = meta[TOOL_IO_KEYS.isError] === true;
    outcome.truncated = meta[TOOL_IO_KEYS.truncated] === true;
    const bytes = meta[TOOL_IO_KEYS.outputBytes];
    if (typeof bytes === "number") outcome.bytes = bytes;
  } else if (meta.sandbox === "refused") outcome.refused = text;
  else {
    const parent = meta[TOOL_IO_KEYS.parent];
    model.entries.push({
      type: "tool",
      toolUseId: id,
      toolName: typeof meta.toolName === "string" ? meta.toolName : "tool",
      input: meta[TOOL_IO_KEYS.input],
      ...(typeof parent === "string" && { parent }),
    });
  }
  return true;
}

/**
 * A `delivery` status folded into its round's or its step's entry; false for any other (and for
 * a `delivery` status of a shape the page does not know: it is shown as a plain status).
 */
export function deliveryEvent(
  model: TaskModel,
  kind: string | undefined,
  meta: Record<string, unknown>,
  text: string,
): boolean {
  if (kind !== KIND.delivery) return false;
  const stage = stageOf(meta, text);
  if (stage === undefined) return false;
  addStage(model.entries, stage);
  return true;
}
