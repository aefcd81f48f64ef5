/**
 * Rewind and fork from the open task (docs/control.md): a rewind first sends its dry run
 * (`metadata.dryRun: true`: the server answers the diff and changes nothing), shown in the
 * panel; the reader's new prompt then goes as the rewind itself. A fork sends the new
 * conversation's first prompt with `metadata.forkOf`; its stream opens the new task, in its new
 * conversation. Each request names the control extension in its header.
 */
import { textPart, userMessage } from "./answers.js";
import { troubleOf } from "./connection.js";
import { controlMetadata, controlOptions } from "./controls.js";
import { renderTask } from "./render.js";
import { send } from "./send.js";
import { state } from "./state.js";

/** The dry run's prompt: the server never hands it to Claude. */
export const DRY_RUN_PROMPT = "Dry run: what would a rewind to before this task change?";

/** Opens the rewind panel of the open task and sends its dry run. */
export async function rewind(): Promise<void> {
  const conn = state.conn;
  const task = state.model?.task;
  if (conn === undefined || task === undefined) return;
  const panel = { kind: "rewind", taskId: task.id } as const;
  state.panel = { ...panel, phase: { step: "checking" } };
  renderTask();
  const message = {
    ...userMessage([textPart(DRY_RUN_PROMPT)], { contextId: task.contextId }),
    metadata: controlMetadata({ kind: "dry-run", taskId: task.id }),
  };
  try {
    const result = await conn.client.sendMessage(
      { tenant: "", message, configuration: undefined, metadata: undefined },
      controlOptions,
    );
    if (!("status" in result)) throw new Error("The server answered the dry run with a message.");
    if (state.panel?.taskId !== task.id) return;
    state.panel = { ...panel, phase: { step: "ready", dryRun: result } };
  } catch (err) {
    if (state.panel?.taskId !== task.id) return;
    state.panel = { ...panel, phase: { step: "failed", reason: troubleOf(err).detail } };
  }
  renderTask();
}

export function fork(): void {
  const task = state.model?.task;
  if (task === undefined || state.conn === undefined) return;
  state.panel = { kind: "fork", taskId: task.id };
  renderTask();
}

/** The panel's prompt sent: the rewind (in the task's conversation) or the fork (in a new one). */
export function confirmPanel(prompt: string): void {
  const panel = state.panel;
  const task = state.model?.task;
  if (panel === undefined || task === undefined || panel.taskId !== task.id) return;
  const parts = [textPart(prompt)];
  if (panel.kind === "rewind")
    void send(parts, prompt, { contextId: task.contextId }, { kind: "rewind", taskId: task.id });
  else void send(parts, prompt, {}, { kind: "fork", taskId: task.id });
}

export function closePanel(): void {
  state.panel = undefined;
  renderTask();
}
