/**
 * The web console at /console: an A2A client in the browser. It lists the caller's tasks by
 * conversation (ListTasks, polled), follows the open task live (SubscribeToTask, or the stream of
 * the message the page sent), answers its prompts, cancels it, and writes into a conversation.
 * Everything goes through the official client over the server's own A2A binding, so the page
 * sees exactly what its caller may see.
 *
 * Over 300 lines on purpose: it is the one module holding the page's state (the open task, its
 * stream, the list, the filter) and the flows that change it together (open, replay, follow,
 * send, steer, cancel, poll); everything they render or decide is in the modules it imports.
 */
import "./buffer-shim.js";
import { TaskState, type Part, type StreamResponse, type Task } from "@a2a-js/sdk";
import { inputRequestOf, textPart, userMessage } from "./answers.js";
import {
  agentBase,
  connect,
  forgetToken,
  storedToken,
  storeToken,
  troubleOf,
  type Connection,
} from "./connection.js";
import { replace } from "./dom.js";
import { patch } from "./dom-patch.js";
import {
  endsStream,
  eventNumberOf,
  MAX_RESUMES,
  replayTask,
  resumeOptions,
  type Opener,
} from "./resume.js";
import { focusKey, refocus, showTrouble, ui } from "./page.js";
import { isTerminal, shortId } from "./format.js";
import { promptForm } from "./prompt-view.js";
import { NO_FILTER, type ListFilter } from "./list-filter.js";
import { askPermission, canNotify, noticeTasks } from "./notify.js";
import { offersSteer, sendSteer, steerForm } from "./steer-view.js";
import { renderList } from "./task-list.js";
import { appendPage, listRequest, mergeFirstPage } from "./task-pages.js";
import { wireFinding } from "./finding.js";
import { applyEvent, applySent, applySnapshot, modelOf, type TaskModel } from "./task-model.js";
import { taskBody, taskHead } from "./task-view.js";

const POLL_MS = 2000;

const state: {
  conn?: Connection;
  tasks: Task[];
  model?: TaskModel;
  /** Where the composer writes: a conversation, or a new one (undefined). */
  context?: string;
  /** The stream the open task is followed by (a subscription or a sent message's stream). */
  stream?: AbortController;
  /** The prompt shown, so a re-render keeps its form (and what is typed in it). */
  promptKey?: string;
  /** The task the address named has been opened once. */
  linked?: boolean;
  filter: ListFilter;
  /** The next page of ListTasks after those read ("" when there is none). */
  nextPage: string;
  /** A render is due at the next frame (stream events come faster than frames). */
  frame?: number;
} = { tasks: [], filter: NO_FILTER, nextPage: "" };

function renderComposerTarget(): void {
  ui.composerTarget.textContent =
    state.context === undefined ? "New conversation" : `Conversation ${shortId(state.context)}`;
  ui.composerNew.hidden = state.context === undefined;
}

function renderTask(): void {
  const model = state.model;
  // The open task is followed live: the list shows its latest state before the next poll does.
  if (model !== undefined)
    state.tasks = state.tasks.map((t) =>
      t.id === model.task.id
        ? { ...t, status: model.task.status, metadata: model.task.metadata }
        : t,
    );
  // Read before anything changes: a read after a change lays the whole page out at once.
  const atBottom = ui.view.scrollHeight - ui.view.scrollTop - ui.view.clientHeight < 40;
  renderList(ui.list, state.tasks, model?.task.id, state.filter, {
    open: (t) => void open(t.id),
    write,
    more: state.nextPage === "" ? undefined : () => void more(),
  });
  noticeTasks(state.tasks, (id) => void open(id));
  if (model === undefined) return;
  const focused = focusKey();
  patch(ui.view, taskHead(model, { cancel: () => void cancel() }), ...taskBody(model));
  refocus(focused);
  if (atBottom) ui.view.scrollTop = ui.view.scrollHeight;
  const status = model.task.status;
  const parked = status?.state === TaskState.TASK_STATE_INPUT_REQUIRED;
  const key = parked
    ? `${model.task.id}:${status.timestamp ?? ""}:${JSON.stringify(status.message?.parts ?? [])}`
    : undefined;
  const steering =
    status?.state === TaskState.TASK_STATE_WORKING && offersSteer(state.conn?.card)
      ? `steer:${model.task.id}`
      : undefined;
  if ((key ?? steering) === state.promptKey) return;
  state.promptKey = key ?? steering;
  if (steering !== undefined && key === undefined) {
    replace(
      ui.prompt,
      steerForm((text, when) => void steer(text, when)),
    );
    return;
  }
  replace(
    ui.prompt,
    parked &&
      promptForm(inputRequestOf(status.message), (parts, shown) => void answer(parts, shown)),
  );
  // Focus goes to the prompt, not to a button in it: a stray Enter must not allow anything.
  ui.prompt.querySelector<HTMLElement>("form")?.focus();
}

/** Renders at the next frame: a burst of streamed chunks costs one render. */
function scheduleRender(): void {
  if (state.frame !== undefined) return;
  state.frame = requestAnimationFrame(() => {
    state.frame = undefined;
    renderTask();
  });
}

/** Sends a steering message to the open, working task (the control extension). */
async function steer(text: string, when: "next" | "now"): Promise<void> {
  const conn = state.conn;
  const task = state.model?.task;
  if (conn === undefined || task === undefined) return;
  ui.error.textContent = "";
  await sendSteer(conn.client, task, text, when).catch((err: unknown) => {
    ui.error.textContent = `Steer: ${troubleOf(err).detail}`;
  });
}

/** The next page of ListTasks, appended to the list. */
async function more(): Promise<void> {
  const conn = state.conn;
  if (conn === undefined || state.nextPage === "") return;
  try {
    const page = await conn.client.listTasks(listRequest(state.nextPage));
    state.tasks = appendPage(state.tasks, page.tasks);
    state.nextPage = page.nextPageToken;
    renderTask();
  } catch (err) {
    ui.error.textContent = `Tasks: ${troubleOf(err).detail}`;
  }
}

function write(contextId: string | undefined): void {
  state.context = contextId;
  renderComposerTarget();
  ui.composerText.focus();
}

/**
 * Follows the open task's stream; a newer stream (or another task) supersedes it. A stream that
 * drops is opened again from the last event number received ("reconnecting…" meanwhile), so the
 * console shows exactly what it missed, once.
 */
async function follow(open: Opener, control: AbortController): Promise<void> {
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

function newStream(): AbortController {
  state.stream?.abort();
  const control = new AbortController();
  state.stream = control;
  return control;
}

/** Subscribes to the open task if it is not over and nothing follows it yet. */
function subscribe(): void {
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

async function open(id: string): Promise<void> {
  const conn = state.conn;
  if (conn === undefined) return;
  state.stream?.abort();
  state.stream = undefined;
  ui.error.textContent = "";
  try {
    const task = await conn.client.getTask({ tenant: "", id, historyLength: undefined });
    state.promptKey = undefined;
    state.context = task.contextId;
    history.replaceState(null, "", `#task=${encodeURIComponent(id)}`);
    renderComposerTarget();
    const target: unknown = task.metadata?.eventNumber;
    if (typeof target !== "number" || !(await replayed(conn, task, target))) {
      state.model = modelOf(task);
      renderTask();
    }
    subscribe();
  } catch (err) {
    ui.error.textContent = `Task ${shortId(id)}: ${troubleOf(err).detail}`;
  }
}

/** Opens `task` from its kept events (resume.ts `replayTask`); false when none are kept. */
async function replayed(conn: Connection, task: Task, target: number): Promise<boolean> {
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

/** Sends a message (an answer, or a message into a conversation) and follows its stream. */
async function send(
  parts: Part[],
  shown: string,
  ids: { taskId?: string; contextId?: string },
): Promise<void> {
  const conn = state.conn;
  if (conn === undefined) return;
  ui.error.textContent = "";
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
  const message = userMessage(parts, ids);
  await follow(
    (cursor) =>
      conn.client.sendMessageStream(
        { tenant: "", message, configuration: undefined, metadata: undefined },
        resumeOptions(control, cursor),
      ),
    control,
  );
  await poll();
}

const answer = (parts: Part[], shown: string): Promise<void> => {
  const task = state.model?.task;
  if (task === undefined) return Promise.resolve();
  state.promptKey = undefined;
  replace(ui.prompt);
  return send(parts, shown, { taskId: task.id, contextId: task.contextId });
};

async function cancel(): Promise<void> {
  const conn = state.conn;
  const model = state.model;
  if (conn === undefined || model === undefined) return;
  try {
    const task = await conn.client.cancelTask({
      tenant: "",
      id: model.task.id,
      metadata: undefined,
    });
    applySnapshot(model, task);
    renderTask();
  } catch (err) {
    ui.error.textContent = `Cancel: ${troubleOf(err).detail}`;
  }
}

/** One round: (re)connect if needed, list the tasks, refresh the open one when it moved. */
async function poll(): Promise<void> {
  try {
    if (state.conn === undefined) {
      state.conn = await connect(agentBase(location.href), storedToken());
      ui.agent.textContent = state.conn.card.name;
    }
    const listed = await state.conn.client.listTasks(listRequest(""));
    const first = state.tasks.length === 0;
    state.tasks = mergeFirstPage(listed.tasks, state.tasks);
    if (first) state.nextPage = listed.nextPageToken;
    showTrouble(undefined);
    const model = state.model;
    const fresh = listed.tasks.find((t) => t.id === model?.task.id);
    if (
      model !== undefined &&
      fresh !== undefined &&
      state.stream === undefined &&
      fresh.status?.timestamp !== model.task.status?.timestamp
    ) {
      applySnapshot(
        model,
        await state.conn.client.getTask({
          tenant: "",
          id: model.task.id,
          historyLength: undefined,
        }),
      );
    }
    renderTask();
    subscribe();
    // A reload keeps the open task (`#task=<id>`), and a shared link opens it.
    const wanted = new URLSearchParams(location.hash.slice(1)).get("task");
    if (model === undefined && !state.linked && wanted !== null) {
      state.linked = true;
      await open(wanted);
    }
  } catch (err) {
    const t = troubleOf(err);
    if (t.kind === "unreachable") state.conn = undefined;
    showTrouble(t);
  }
}

ui.tokenForm.addEventListener("submit", (e) => {
  e.preventDefault();
  const token = ui.tokenInput.value.trim();
  if (token === "") return;
  storeToken(token);
  ui.tokenInput.value = "";
  state.conn = undefined;
  void poll();
});
ui.forget.addEventListener("click", () => {
  forgetToken();
  state.conn = undefined;
  void poll();
});
// Notifications are asked for on a click only (browsers refuse a request on load anyway).
ui.notify.hidden = !canNotify() || Notification.permission !== "default";
ui.notify.addEventListener("click", () => {
  void askPermission().then(() => (ui.notify.hidden = true));
});
ui.composerNew.addEventListener("click", () => write(undefined));
ui.composer.addEventListener("submit", (e) => {
  e.preventDefault();
  const text = ui.composerText.value.trim();
  if (text === "") return;
  ui.composerText.value = "";
  void send(
    [textPart(text)],
    text,
    state.context === undefined ? {} : { contextId: state.context },
  );
});
// Ctrl/Cmd+Enter sends from the text area.
ui.composerText.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) ui.composer.requestSubmit();
});

wireFinding(
  (filter) => {
    if (filter.contextId !== "" && filter.contextId !== state.filter.contextId) {
      // A conversation's link: the composer writes into it.
      state.context = filter.contextId;
      renderComposerTarget();
    }
    state.filter = filter;
    renderTask();
  },
  (id) => void open(id),
);
renderComposerTarget();
void poll();
setInterval(() => void poll(), POLL_MS);
