/**
 * One task: its head (what was asked, its outcome, the facts: origin, conversation, age, cost,
 * branch; Cancel), its timeline in everyday words (messages, Claude's answers as Markdown, each
 * tool call with its input and output, the statuses) and its files, then a details view with the
 * protocol's own words (each status's state and `metadata.kind`). The prompt form of an
 * input-required task is the app's: it is kept while the timeline re-renders.
 */
import { TaskState } from "@a2a-js/sdk";
import { KIND } from "../src/contract/kinds.js";
import { usageOf } from "../src/contract/usage.js";
import { deliveryView } from "./delivery-view.js";
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
import { markdownView } from "./markdown-view.js";
import { proofSection } from "./proof-view.js";
import { resultRepeats, type Entry, type TaskModel } from "./task-model.js";
import { nestTools, type Nesting } from "./tool-nesting.js";
import { toolTree } from "./tool-view.js";
import { outcomeLine, statusWords, titleOf } from "./words.js";

export interface ViewHandlers {
  readonly cancel: () => void;
}

const who = (role: "user" | "agent") =>
  h("span", { class: "who" }, role === "user" ? "You" : "Claude");

function entryView(
  model: TaskModel,
  entry: Entry,
  lastText: string | undefined,
  nesting: Nesting,
): HTMLElement | undefined {
  switch (entry.type) {
    case "message":
      return entry.role === "user"
        ? h("div", { class: "entry message user" }, who("user"), h("p", {}, entry.text))
        : h(
            "div",
            { class: "entry message agent" },
            who("agent"),
            markdownView(
              entry.text,
              `m:${model.task.id}:${entry.text.length}:${entry.text.slice(0, 40)}`,
            ),
          );
    case "text":
      return h(
        "div",
        { class: "entry message agent streaming", "data-artifact-id": entry.artifactId },
        who("agent"),
        markdownView(model.texts.get(entry.artifactId) ?? "", entry.artifactId, {
          class: "markdown assistant-text",
        }),
      );
    case "tool":
      // A subagent's call is shown under the call that ran it.
      return nesting.nested.has(entry.toolUseId)
        ? undefined
        : toolTree(entry, model.tools, nesting);
    case "delivery":
      return deliveryView(entry);
    case "file":
      // The change itself is shown once, in the files section.
      return h(
        "div",
        { class: "entry file-written" },
        `${entry.operation === "created" ? "Created" : entry.operation === "deleted" ? "Deleted" : "Changed"} `,
        h("code", {}, entry.path),
      );
    case "status": {
      // The result repeats the text just streamed: it is not shown twice.
      if (entry.kind === KIND.result && resultRepeats(entry.text, lastText))
        return h(
          "div",
          { class: "entry status result", "data-kind": entry.kind, "data-state": entry.state },
          h("span", { class: "text" }, "Answered"),
        );
      const words = statusWords(entry.kind, entry.state, entry.text);
      return h(
        "div",
        {
          class: `entry status${entry.kind === KIND.result ? " result" : ""}`,
          "data-kind": entry.kind ?? "",
          "data-state": entry.state,
        },
        entry.kind === KIND.result
          ? markdownView(entry.text, `r:${model.task.id}:${entry.text.length}`, {
              class: "markdown text",
            })
          : h("span", { class: "text" }, words),
      );
    }
  }
}

/** The first thing the client asked in this task (its first user message). */
export function askOf(model: TaskModel): string | undefined {
  const first = model.entries.find((e) => e.type === "message" && e.role === "user");
  return first?.type === "message" ? first.text : undefined;
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
  const title = titleOf(askOf(model), 90) || `Task ${shortId(t.id)}`;
  return h(
    "header",
    { class: "task-head" },
    h("h2", { id: "task-title", title: t.id }, title),
    h(
      "p",
      { class: "outcome" },
      h("span", { class: `badge state-${state}`, id: "task-state" }, state),
      " ",
      h("span", { id: "task-outcome" }, outcomeLine(state, usageOf(t.metadata))),
    ),
    h(
      "dl",
      { class: "facts" },
      facts
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) =>
          h("div", { class: "fact" }, h("dt", {}, k), h("dd", { "data-fact": k.toLowerCase() }, v)),
        ),
    ),
    !isTerminal(t.status?.state) &&
      h(
        "button",
        { type: "button", class: "danger", id: "cancel", onclick: on.cancel },
        "Cancel task",
      ),
  );
}

/** The statuses as the protocol said them: state, `metadata.kind`, text. */
function detailsView(model: TaskModel): HTMLElement | undefined {
  if (model.log.length === 0) return undefined;
  return h(
    "details",
    { class: "protocol", id: "protocol-details" },
    h("summary", {}, "Protocol details"),
    h(
      "p",
      {},
      "Task ",
      h("code", {}, model.task.id),
      ", conversation ",
      h("code", {}, model.task.contextId),
    ),
    h(
      "table",
      {},
      h(
        "thead",
        {},
        h("tr", {}, h("th", {}, "State"), h("th", {}, "metadata.kind"), h("th", {}, "Text")),
      ),
      h(
        "tbody",
        {},
        model.log.map((l) =>
          h(
            "tr",
            {},
            h("td", {}, l.state),
            h("td", {}, h("code", {}, l.kind ?? "—")),
            h("td", {}, l.text),
          ),
        ),
      ),
    ),
  );
}

/** The timeline, the files and the details. */
export function taskBody(model: TaskModel): HTMLElement[] {
  let lastText: string | undefined;
  const entries: HTMLElement[] = [];
  const nesting = nestTools(model.entries);
  for (const e of model.entries) {
    const view = entryView(model, e, lastText, nesting);
    if (e.type === "text") lastText = model.texts.get(e.artifactId);
    if (view !== undefined) entries.push(view);
  }
  const state = model.task.status?.state;
  const timeline = h(
    "section",
    { class: "timeline", "aria-label": "What happened" },
    entries.length === 0 ? h("p", { class: "empty" }, "Nothing to show yet.") : entries,
    state === TaskState.TASK_STATE_WORKING &&
      h("p", { class: "working", role: "status" }, "Claude is working…"),
    state === TaskState.TASK_STATE_INPUT_REQUIRED &&
      h("p", { class: "waiting", role: "status" }, "Waiting for your answer"),
    isTerminal(state) &&
      h(
        "p",
        { class: "ended", "data-state": stateName(state) },
        outcomeLine(stateName(state), usageOf(model.task.metadata)),
      ),
  );
  return [
    timeline,
    proofSection(model.proof, model.task.id),
    filesSection(model),
    detailsView(model),
  ].filter((x): x is HTMLElement => x !== undefined);
}
