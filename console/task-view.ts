/**
 * One task: its head (state, origin, conversation, age, cost, branch, Cancel), its timeline
 * (messages, each status with its `metadata.kind`, tool calls, Claude's text as it streams, files
 * written) and its files. The prompt form of an input-required task is the app's: it is kept
 * while the timeline re-renders, so a half-typed reason survives a new event.
 */
import { TaskState } from "@a2a-js/sdk";
import { KIND } from "../src/contract/kinds.js";
import { h } from "./dom.js";
import { filesSection } from "./files-view.js";
import {
  age,
  branchOf,
  commitOf,
  costOf,
  isTerminal,
  originOf,
  shortId,
  stateName,
} from "./format.js";
import type { Entry, TaskModel } from "./task-model.js";

export interface ViewHandlers {
  readonly cancel: () => void;
}

function entryView(
  model: TaskModel,
  entry: Entry,
  lastText: string | undefined,
): HTMLElement | undefined {
  switch (entry.type) {
    case "message":
      return h(
        "div",
        { class: `entry message ${entry.role}` },
        h("span", { class: "who" }, entry.role === "user" ? "You" : "Claude"),
        h("p", {}, entry.text),
      );
    case "text":
      return h(
        "div",
        { class: "entry message agent streaming", "data-artifact-id": entry.artifactId },
        h("span", { class: "who" }, "Claude"),
        h("p", { class: "assistant-text" }, model.texts.get(entry.artifactId) ?? ""),
      );
    case "file":
      return h(
        "div",
        { class: "entry file-written" },
        h("span", { class: "badge kind" }, KIND.file),
        ` ${entry.operation} `,
        h("code", {}, entry.path),
      );
    case "status": {
      const isTool = entry.kind === KIND.toolUse;
      // The result repeats the text just streamed: the kind alone says the turn's answer came.
      const text = entry.kind === KIND.result && entry.text === lastText ? "" : entry.text;
      return h(
        "div",
        {
          class: `entry status${isTool ? " tool" : ""}`,
          "data-kind": entry.kind ?? "",
          "data-state": entry.state,
        },
        h("span", { class: `badge state-${entry.state}` }, entry.state),
        entry.kind !== undefined && h("span", { class: "badge kind" }, entry.kind),
        isTool && entry.toolName !== undefined
          ? h("code", { class: "tool-name" }, entry.toolName)
          : text !== "" && h("span", { class: "text" }, text),
      );
    }
  }
}

/** The task's head: what it is and what can be done with it. */
export function taskHead(model: TaskModel, on: ViewHandlers, now = Date.now()): HTMLElement {
  const t = model.task;
  const state = stateName(t.status?.state);
  const facts: [string, string | undefined][] = [
    ["Origin", originOf(t)],
    ["Conversation", shortId(t.contextId)],
    ["Updated", ((a) => (a === undefined ? undefined : `${a} ago`))(age(t.status?.timestamp, now))],
    ["Cost", costOf(t) ?? (isTerminal(t.status?.state) ? undefined : "known when it ends")],
    ["Branch", branchOf(t)],
    ["Commit", commitOf(t)],
  ];
  return h(
    "header",
    { class: "task-head" },
    h(
      "h2",
      {},
      "Task ",
      h("code", { title: t.id }, shortId(t.id)),
      " ",
      h("span", { class: `badge state-${state}`, id: "task-state" }, state),
    ),
    h(
      "dl",
      { class: "facts" },
      facts
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [h("dt", {}, k), h("dd", { "data-fact": k.toLowerCase() }, v)]),
    ),
    !isTerminal(t.status?.state) &&
      h(
        "button",
        { type: "button", class: "danger", id: "cancel", onclick: on.cancel },
        "Cancel task",
      ),
  );
}

/** The timeline and the files. */
export function taskBody(model: TaskModel): HTMLElement[] {
  let lastText: string | undefined;
  const entries: HTMLElement[] = [];
  for (const e of model.entries) {
    const view = entryView(model, e, lastText);
    if (e.type === "text") lastText = model.texts.get(e.artifactId);
    if (view !== undefined) entries.push(view);
  }
  const working = model.task.status?.state === TaskState.TASK_STATE_WORKING;
  const timeline = h(
    "section",
    { class: "timeline", "aria-label": "What happened" },
    entries.length === 0 ? h("p", { class: "empty" }, "Nothing to show yet.") : entries,
    working && h("p", { class: "working", role: "status" }, "Claude is working…"),
  );
  const files = filesSection(model);
  return files === undefined ? [timeline] : [timeline, files];
}
