/**
 * Reading tasks: one poll round (connect if needed, ListTasks, refresh the open task when it
 * moved), the next page of the list, opening a task (replayed from its kept events, else as
 * stored, then followed), and canceling it.
 */
import { agentBase, connect, storedToken, troubleOf } from "./connection.js";
import { offersPlanMode } from "./controls.js";
import { replayed, subscribe } from "./follow.js";
import { shortId } from "./format.js";
import { showTrouble, ui } from "./page.js";
import { renderTask } from "./render.js";
import { renderComposerTarget, state } from "./state.js";
import { appendPage, listQuery, listRequest, mergeFirstPage, sameQuery } from "./task-pages.js";
import { applySnapshot, modelOf } from "./task-model.js";

export async function open(id: string): Promise<void> {
  const conn = state.conn;
  if (conn === undefined) return;
  state.stream?.abort();
  state.stream = undefined;
  ui.error.textContent = "";
  try {
    const task = await conn.client.getTask({ tenant: "", id, historyLength: undefined });
    state.promptKey = undefined;
    state.panel = undefined;
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

/** The next page of ListTasks, appended to the list. */
export async function more(): Promise<void> {
  const conn = state.conn;
  if (conn === undefined || state.nextPage === "") return;
  try {
    const query = state.query;
    const page = await conn.client.listTasks(listRequest(state.nextPage, query));
    // The filter changed meanwhile: the list is read again from its first page.
    if (!sameQuery(query, state.query)) return;
    state.tasks = appendPage(state.tasks, page.tasks);
    state.nextPage = page.nextPageToken;
    renderTask();
  } catch (err) {
    ui.error.textContent = `Tasks: ${troubleOf(err).detail}`;
  }
}

export async function cancel(): Promise<void> {
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
export async function poll(): Promise<void> {
  try {
    if (state.conn === undefined) {
      state.conn = await connect(agentBase(location.href), storedToken());
      ui.agent.textContent = state.conn.card.name;
      ui.composerPlan.hidden = !offersPlanMode(state.conn.card);
    }
    const query = listQuery(state.filter);
    const listed = await state.conn.client.listTasks(listRequest("", query));
    // The filter changed while this was asked: the poll it started reads the new one.
    if (!sameQuery(query, listQuery(state.filter))) return;
    // A new query: the pages read for the old one go (their tasks may not pass it).
    const asked = !sameQuery(query, state.query);
    const first = asked || state.tasks.length === 0;
    state.tasks = mergeFirstPage(listed.tasks, asked ? [] : state.tasks);
    state.query = query;
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
