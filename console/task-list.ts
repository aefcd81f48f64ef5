/**
 * The side list: the caller's tasks by conversation (newest conversation first), each with its
 * state, origin, age and cost when known. Every row is a button: Tab reaches it, Enter opens it.
 */
import type { Task } from "@a2a-js/sdk";
import { h, replace } from "./dom.js";
import { age, costOf, originOf, shortId, stateName } from "./format.js";
import { messageText } from "./answers.js";

export interface ListHandlers {
  readonly open: (task: Task) => void;
  /** Write into this conversation (the composer's target). */
  readonly write: (contextId: string) => void;
}

/** Tasks grouped by `contextId`, in the order the server listed them (newest first). */
export function byConversation(tasks: readonly Task[]): [string, Task[]][] {
  const groups = new Map<string, Task[]>();
  for (const t of tasks) {
    const group = groups.get(t.contextId);
    if (group === undefined) groups.set(t.contextId, [t]);
    else group.push(t);
  }
  return [...groups];
}

function row(task: Task, selected: boolean, now: number, on: ListHandlers): HTMLElement {
  const state = stateName(task.status?.state);
  const cost = costOf(task);
  const when = age(task.status?.timestamp, now);
  const origin = originOf(task);
  const summary = messageText(task.status?.message) || messageText(task.history.at(-1));
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
      h("span", { class: `badge state-${state}` }, state),
      h("span", { class: "task-id" }, shortId(task.id)),
      origin === "autonomous" && h("span", { class: "badge origin" }, "autonomous"),
      h("span", { class: "meta" }, [when && `${when} ago`, cost].filter(Boolean).join(" · ")),
      summary !== "" && h("span", { class: "summary" }, summary.slice(0, 120)),
    ),
  );
}

/** Renders the list (or the empty state) into `el`. */
export function renderList(
  el: HTMLElement,
  tasks: readonly Task[],
  selectedId: string | undefined,
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
  replace(
    el,
    byConversation(tasks).map(([contextId, group]) =>
      h(
        "section",
        { class: "conversation", "data-context-id": contextId },
        h(
          "header",
          {},
          h("h2", {}, `Conversation ${shortId(contextId)}`),
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
  );
}
