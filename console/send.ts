/**
 * Writing to the server: a message (an answer, a message into a conversation, or one that asks
 * the control extension for plan mode, a rewind or a fork) sent and its stream followed, and a
 * steering message for the working task.
 */
import type { Part } from "@a2a-js/sdk";
import { userMessage } from "./answers.js";
import { troubleOf } from "./connection.js";
import { controlMetadata, controlOptions, type ControlAsk } from "./controls.js";
import { replace } from "./dom.js";
import { follow } from "./follow.js";
import { ui } from "./page.js";
import { renderTask } from "./render.js";
import { resumeOptions } from "./resume.js";
import { newStream, state } from "./state.js";
import { sendSteer } from "./steer-view.js";
import { applySent, modelOf } from "./task-model.js";
import { poll } from "./tasks.js";

/**
 * Sends a message and follows its stream. With `ask` the message carries that control's metadata
 * and the request the extension's header (without it the server refuses those keys).
 */
export async function send(
  parts: Part[],
  shown: string,
  ids: { taskId?: string; contextId?: string },
  ask?: ControlAsk,
): Promise<void> {
  const conn = state.conn;
  if (conn === undefined) return;
  ui.error.textContent = "";
  state.panel = undefined;
  const control = newStream();
  if (ids.taskId !== undefined && state.model !== undefined) applySent(state.model, shown);
  else
    state.model = modelOf({
      id: "",
      contextId: ids.contextId ?? "",
      status: undefined,
      artifacts: [],
      history: [],
      metadata: undefined,
    });
  renderTask();
  // One message, sent again as is (the same messageId) when its stream is resumed.
  const base = userMessage(parts, ids);
  const message = ask === undefined ? base : { ...base, metadata: controlMetadata(ask) };
  await follow((cursor) => {
    const options = resumeOptions(control, cursor);
    return conn.client.sendMessageStream(
      { tenant: "", message, configuration: undefined, metadata: undefined },
      ask === undefined
        ? options
        : {
            ...options,
            serviceParameters: {
              ...("serviceParameters" in options ? options.serviceParameters : {}),
              ...controlOptions.serviceParameters,
            },
          },
    );
  }, control);
  await poll();
}

export const answer = (parts: Part[], shown: string): Promise<void> => {
  const task = state.model?.task;
  if (task === undefined) return Promise.resolve();
  state.promptKey = undefined;
  replace(ui.prompt);
  return send(parts, shown, { taskId: task.id, contextId: task.contextId });
};

/** Sends a steering message to the open, working task (the control extension). */
export async function steer(text: string, when: "next" | "now"): Promise<void> {
  const conn = state.conn;
  const task = state.model?.task;
  if (conn === undefined || task === undefined) return;
  ui.error.textContent = "";
  await sendSteer(conn.client, task, text, when).catch((err: unknown) => {
    ui.error.textContent = `Steer: ${troubleOf(err).detail}`;
  });
}
