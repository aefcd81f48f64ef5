/**
 * The page's state, in one place: the connection, the tasks listed, the open task and the stream
 * that follows it, where the composer writes, the slot under the timeline, the filter. The flows
 * that change it (follow.ts, tasks.ts, send.ts, control-flow.ts) and the render (render.ts) share it.
 */
import type { Task } from "@a2a-js/sdk";
import type { Connection } from "./connection.js";
import { shortId } from "./format.js";
import { NO_FILTER, type ListFilter } from "./list-filter.js";
import { ui } from "./page.js";
import type { Panel } from "./prompt-slot.js";
import type { TaskModel } from "./task-model.js";
import { ANY_TASK, type ListQuery } from "./task-pages.js";

export const state: {
  conn?: Connection;
  tasks: Task[];
  model?: TaskModel;
  /** Where the composer writes: a conversation, or a new one (undefined). */
  context?: string;
  /** The stream the open task is followed by (a subscription or a sent message's stream). */
  stream?: AbortController;
  /** The slot's key (prompt-slot.ts), so a re-render keeps its form (and what is typed in it). */
  promptKey?: string;
  /** A rewind or fork the reader started from the open task. */
  panel?: Panel;
  /** The task the address named has been opened once. */
  linked?: boolean;
  filter: ListFilter;
  /** What the tasks held were listed with (the server's part of the filter). */
  query: ListQuery;
  /** The next page of ListTasks after those read ("" when there is none). */
  nextPage: string;
  /** A render is due at the next frame (stream events come faster than frames). */
  frame?: number;
} = { tasks: [], filter: NO_FILTER, query: ANY_TASK, nextPage: "" };

export function renderComposerTarget(): void {
  ui.composerTarget.textContent =
    state.context === undefined ? "New conversation" : `Conversation ${shortId(state.context)}`;
  ui.composerNew.hidden = state.context === undefined;
}

/** A stream for the open task, superseding the one before. */
export function newStream(): AbortController {
  state.stream?.abort();
  const control = new AbortController();
  state.stream = control;
  return control;
}
