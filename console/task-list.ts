/**
 * The side list: the caller's tasks by conversation (newest first), each conversation titled by
 * its first prompt and each task card saying what was asked and how it went ("Completed in 12 s ·
 * $0.004"), with its origin and age. Every card is a button: Tab reaches it, Enter opens it.
 * The search and the filters (list-filter.ts) decide what is shown; "Show more" reads the next
 * page of ListTasks.
 */
import type { Task } from "@a2a-js/sdk";
import { usageOf } from "../src/contract/usage.js";
import { h, replace } from "./dom.js";
import { patch } from "./dom-patch.js";
import { markListed } from "./marks.js";
import { age, originOf, shortId, stateName } from "./format.js";
import { askOfTask, conversations, ownerOf, saidOfTask, type ListFilter } from "./list-filter.js";
import { outcomeLine, plainOf, titleOf } from "./words.js";

export interface ListHandlers {
  readonly open: (task: Task) => void;
  /** Write into this conversation (the composer's target). */
  readonly write: (contextId: string) => void;
  /** Reads the next page; undefined when there is none. */
  readonly more: (() => void) | undefined;
}

function row(task: Task, selected: boolean, now: number, on: ListHandlers): HTMLElement {
  const state = stateName(task.status?.state);
  const when = age(task.status?.timestamp, now);
  const origin = originOf(task);
  const owner = ownerOf(task);
  const ask = askOfTask(task);
  const said = saidOfTask(task);
  return h(
    "li",
    {},
    h(
      "button",
      {
        class: `task-row${selected ? " selected" : ""}`,
        type: "button",
        "data-task-id": task.id,
        "data-state": state,
        "aria-current": selected ? "true" : undefined,
        onclick: () => on.open(task),
      },
      h("span", { class: "ask" }, titleOf(ask, 100) || `Task ${shortId(task.id)}`),
      h(
        "span",
        { class: "outcome" },
        h("span", { class: `badge state-${state}` }, state),
        " ",
        outcomeLine(state, usageOf(task.metadata)),
      ),
      said !== "" && said !== ask && h("span", { class: "summary" }, titleOf(plainOf(said), 120)),
      h(
        "span",
        { class: "meta" },
        [when && `${when} ago`, origin === "autonomous" && "autonomous", owner && `by ${owner}`]
          .filter(Boolean)
          .join(" · "),
      ),
    ),
  );
}

/** Renders the list (or the empty state) into `el`. */
export function renderList(
  el: HTMLElement,
  tasks: readonly Task[],
  selectedId: string | undefined,
  filter: ListFilter,
  on: ListHandlers,
  now = Date.now(),
): void {
  if (tasks.length === 0) {
    replace(
      el,
      h(
        "p",
        { class: "empty" },
        "No tasks yet. Write below to start a conversation, or have an A2A client send one: it shows up here.",
      ),
    );
    return;
  }
  const shown = conversations(tasks, filter);
  // Patched, not rebuilt: a thousand rows re-rendered at every poll touch only what changed.
  patch(
    el,
    shown.length === 0 && h("p", { class: "empty none-found" }, "No task matches the search."),
    shown.map(({ contextId, title, tasks: group }) =>
      h(
        "section",
        { class: "conversation", "data-context-id": contextId },
        h(
          "header",
          {},
          h(
            "h2",
            { title: `Conversation ${contextId}` },
            h(
              "a",
              { href: `#conversation=${encodeURIComponent(contextId)}`, class: "title" },
              titleOf(title) || `Conversation ${shortId(contextId)}`,
            ),
          ),
          h(
            "button",
            {
              type: "button",
              class: "link",
              onclick: () => on.write(contextId),
              title: "Write into this conversation",
            },
            "Write here",
          ),
        ),
        h(
          "ul",
          {},
          group.map((t) => row(t, t.id === selectedId, now, on)),
        ),
      ),
    ),
    on.more !== undefined &&
      h("button", { type: "button", id: "list-more", onclick: on.more }, "Show more tasks"),
  );
  markListed();
}
