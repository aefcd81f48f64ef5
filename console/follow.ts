/**
 * Following the open task live: a sent message's stream or a subscription, resumed from the last
 * event number when it drops (resume.ts), and a task opened after the fact replayed from its kept
 * events. A stream that starts another task (a new conversation, a rewind, a fork, a queued
 * follow-up) opens that task.
 */
import type { StreamResponse, Task } from "@a2a-js/sdk";
import { troubleOf, type Connection } from "./connection.js";
import { isTerminal } from "./format.js";
import { ui } from "./page.js";
import { renderTask, scheduleRender } from "./render.js";
import {
  endsStream,
  eventNumberOf,
  MAX_RESUMES,
  replayTask,
  resumeOptions,
  type Opener,
} from "./resume.js";
import { newStream, renderComposerTarget, state } from "./state.js";
import { applyEvent, modelOf } from "./task-model.js";

/**
 * Follows the open task's stream; a newer stream (or another task) supersedes it. A stream that
 * drops is opened again from the last event number received ("reconnecting…" meanwhile), so the
 * console shows exactly what it missed, once.
 */
export async function follow(open: Opener, control: AbortController): Promise<void> {
  let cursor: number | undefined;
  for (let resumes = 0; ; resumes++) {
    const done = await followOnce(open(cursor), control, (n) => (cursor = n)).catch(
      (err: unknown) => {
        if (control.signal.aborted) return true;
        if (resumes >= MAX_RESUMES) {
          ui.error.textContent = troubleOf(err).detail;
          return true;
        }
        return false;
      },
    );
    if (done || control.signal.aborted) break;
    ui.error.textContent = `reconnecting… (from event ${cursor ?? 0})`;
    await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** resumes));
  }
  if (ui.error.textContent?.startsWith("reconnecting…") === true) ui.error.textContent = "";
  if (state.stream === control) state.stream = undefined;
}

/** One stream until it ends (true) or closes without its last event (false); throws if it drops. */
async function followOnce(
  events: AsyncGenerator<StreamResponse>,
  control: AbortController,
  seen: (n: number) => void,
): Promise<boolean> {
  let numbered = false;
  for await (const event of events) {
    if (control.signal.aborted) return true;
    const n = eventNumberOf(event);
    if (n !== undefined) {
      seen(n);
      numbered = true;
    }
    const model = state.model;
    if (model === undefined) return true;
    if (event.payload?.$case === "task" && event.payload.value.id !== model.task.id) {
      // The message started a new task (a new conversation, or a queued follow-up): open it.
      const task = event.payload.value;
      state.model = modelOf(task);
      state.promptKey = undefined;
      state.panel = undefined;
      // The composer goes on writing into that conversation; a reload reopens the task.
      state.context = task.contextId;
      renderComposerTarget();
      history.replaceState(null, "", `#task=${encodeURIComponent(task.id)}`);
    } else applyEvent(model, event);
    if (endsStream(event)) renderTask();
    else scheduleRender();
    if (endsStream(event)) return true;
  }
  // Closed without its last event: resume when there is a number to resume from.
  return !numbered;
}

/** Subscribes to the open task if it is not over and nothing follows it yet. */
export function subscribe(): void {
  const conn = state.conn;
  const task = state.model?.task;
  if (
    conn === undefined ||
    task === undefined ||
    state.stream !== undefined ||
    isTerminal(task.status?.state)
  )
    return;
  const control = newStream();
  void follow(
    (cursor) =>
      conn.client.resubscribeTask({ tenant: "", id: task.id }, resumeOptions(control, cursor)),
    control,
  );
}

/** Opens `task` from its kept events (resume.ts `replayTask`); false when none are kept. */
export async function replayed(conn: Connection, task: Task, target: number): Promise<boolean> {
  const model = modelOf({ ...task, history: [], artifacts: [] });
  state.model = model;
  const control = newStream();
  const ok = await replayTask(
    (cursor) =>
      conn.client.resubscribeTask({ tenant: "", id: task.id }, resumeOptions(control, cursor)),
    target,
    (event) => {
      if (state.model !== model) return control.abort();
      applyEvent(model, event);
      scheduleRender();
    },
    control.signal,
  ).catch(() => true);
  if (state.stream === control) state.stream = undefined;
  if (ok && state.model === model) renderTask();
  return ok;
}
