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
import { keyed, keyOf, patch } from "./dom-patch.js";
import { markListed } from "./marks.js";
import { age, originOf, shortId, stateName } from "./format.js";
import { askOfTask, conversations, ownerOf, saidOfTask, type ListFilter } from "./list-filter.js";
import { outcomeLine, plainOf, titleOf } from "./words.js";
import { ANY_TASK, listQuery, sameQuery } from "./task-pages.js";

export interface ListHandlers {
  readonly open: (task: Task) => void;
  /** Write into this conversation (the composer's target). */
  readonly write: (contextId: string) => void;
  /** Reads the next page; undefined when there is none. */
  readonly more: (() => void) | undefined;
}

// Each task's card, built once per look: with a thousand tasks listed, a render (every poll,
// every page read) builds only the cards whose words changed; the patch skips the others
// (dom-patch.ts `keyed`). The cards are copies in the page, so their clicks are the list's.
const cards = new Map<string, HTMLElement>();

function row(task: Task, selected: boolean, now: number): HTMLElement {
  const state = stateName(task.status?.state);
  const when = age(task.status?.timestamp, now);
  const origin = originOf(task);
  const owner = ownerOf(task);
  const ask = titleOf(askOfTask(task), 100) || `Task ${shortId(task.id)}`;
  const said = saidOfTask(task);
  const summary = said !== "" && said !== askOfTask(task) ? titleOf(plainOf(said), 120) : "";
  const outcome = outcomeLine(state, usageOf(task.metadata));
  const meta = [
    when && `${when} ago`,
    origin === "autonomous" && "autonomous",
    owner && `by ${owner}`,
  ]
    .filter(Boolean)
    .join(" · ");
  const key = [task.id, selected, state, ask, outcome, summary, meta].join("\u0000");
  const card = cards.get(task.id);
  if (card !== undefined && keyOf(card) === key) return card;
  const built = keyed(
    h(
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
        },
        h("span", { class: "ask" }, ask),
        h(
          "span",
          { class: "outcome" },
          h("span", { class: `badge state-${state}` }, state),
          " ",
          outcome,
        ),
        summary !== "" && h("span", { class: "summary" }, summary),
        h("span", { class: "meta" }, meta),
      ),
    ),
    key,
  );
  cards.set(task.id, built);
  return built;
}

// What a click on a card opens: the tasks and handlers of the list's latest render.
const latest = new WeakMap<HTMLElement, { tasks: readonly Task[]; on: ListHandlers }>();

function delegateClicks(el: HTMLElement, tasks: readonly Task[], on: ListHandlers): void {
  if (!latest.has(el))
    el.addEventListener("click", (e) => {
      const id = (e.target as Element | null)?.closest(".task-row")?.getAttribute("data-task-id");
      const now = latest.get(el);
      const task = now?.tasks.find((t) => t.id === id);
      if (now !== undefined && task !== undefined) now.on.open(task);
    });
  latest.set(el, { tasks, on });
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
  // Nothing at all (not nothing in the state or the conversation the server was asked for).
  if (tasks.length === 0 && sameQuery(listQuery(filter), ANY_TASK)) {
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
  delegateClicks(el, tasks, on);
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
          group.map((t) => row(t, t.id === selectedId, now)),
        ),
      ),
    ),
    on.more !== undefined &&
      h("button", { type: "button", id: "list-more", onclick: on.more }, "Show more tasks"),
  );
  markListed();
}
