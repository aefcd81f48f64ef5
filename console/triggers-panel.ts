/**
 * The Triggers view (docs/console.md, docs/triggers.md "Operating triggers"), for operators: the
 * agent's triggers with their last and next firing, a "Fire now" button each, and each trigger's
 * tasks (ListTasks with `A2A-Task-Trigger`), which open like any task. It reads the operator's
 * `<base>/triggers`; a caller without the role is refused there (403) and never sees the view.
 */
import type { Task } from "@a2a-js/sdk";
import {
  firePath,
  TASK_TRIGGER_HEADER,
  TRIGGERS_PATH,
  type FireAnswer,
  type LastFiring,
  type TriggerStatus,
  type TriggersListing,
} from "../src/contract/triggers.js";
import { agentBase, consoleFetch, Refusal, storedToken, troubleOf } from "./connection.js";
import { h } from "./dom.js";
import { shortId, stateName } from "./format.js";
import { state } from "./state.js";
import { listRequest } from "./task-pages.js";
import { open } from "./tasks.js";

const TRIGGER_TASKS = 10;

const panel = {
  section: document.getElementById("triggers") as HTMLElement,
  list: document.getElementById("trigger-list") as HTMLUListElement,
  note: document.getElementById("trigger-note") as HTMLElement,
};

/** The triggers whose tasks are shown, and those tasks as last read. */
const shown = new Map<string, readonly Task[]>();

/** `<base>/<path>` of the agent the page belongs to (`/` or `/agents/<name>/`). */
const endpoint = (path: string): string => new URL(`.${path}`, agentBase(location.href)).href;

const call = (path: string, method: "GET" | "POST"): Promise<Response> =>
  consoleFetch(storedToken())(endpoint(path), { method });

const when = (iso: string): string => iso.replace("T", " ").replace(/\.\d+Z$/, "Z");

const lastText = (f: LastFiring | undefined): string =>
  f === undefined ? "never" : `${when(f.at)}, ${f.outcome}`;

/** Reads the listing and draws it; hidden for a caller the server refuses it to. */
export async function refreshTriggers(): Promise<void> {
  let listing: TriggersListing;
  try {
    const res = await call(TRIGGERS_PATH, "GET");
    if (!res.ok) return hide();
    listing = (await res.json()) as TriggersListing;
  } catch (err) {
    // 401, 403: not an operator (or no token yet); anything else is the task list's to say.
    if (err instanceof Refusal) return hide();
    return;
  }
  for (const name of shown.keys()) await readTasks(name);
  draw(listing.triggers);
}

function hide(): void {
  panel.section.hidden = true;
}

async function readTasks(name: string): Promise<void> {
  const conn = state.conn;
  if (conn === undefined) return;
  const page = await conn.client.listTasks(
    { ...listRequest(""), pageSize: TRIGGER_TASKS, historyLength: 0 },
    { serviceParameters: { [TASK_TRIGGER_HEADER]: name } },
  );
  shown.set(name, page.tasks);
}

async function fire(name: string): Promise<void> {
  panel.note.textContent = `Firing ${name}…`;
  try {
    const res = await call(firePath(name), "POST");
    const answer = (await res.json()) as FireAnswer;
    if (answer.taskId === undefined) {
      panel.note.textContent = `${name}: ${answer.outcome}${answer.reason ? `: ${answer.reason}` : ""}`;
      return;
    }
    panel.note.textContent = `${name}: ${answer.outcome}, task ${shortId(answer.taskId)}`;
    if (!shown.has(name)) shown.set(name, []);
    await refreshTriggers();
    await open(answer.taskId);
  } catch (err) {
    panel.note.textContent = `${name}: ${troubleOf(err).detail}`;
  }
}

async function toggleTasks(name: string): Promise<void> {
  if (shown.has(name)) shown.delete(name);
  else shown.set(name, []);
  await refreshTriggers();
}

function draw(triggers: readonly TriggerStatus[]): void {
  panel.section.hidden = false;
  panel.list.replaceChildren(
    ...(triggers.length === 0 ? [h("li", { class: "empty" }, "No triggers.")] : []),
    ...triggers.map((t) => {
      const tasks = shown.get(t.name);
      return h(
        "li",
        { class: "trigger", "data-trigger": t.name },
        h("div", { class: "trigger-head" }, h("strong", {}, t.name), ` ${t.kind}`),
        h(
          "div",
          { class: "trigger-times" },
          `Last: ${lastText(t.lastFiring)} · Next: ${t.nextFiring ? when(t.nextFiring) : "—"}`,
        ),
        h(
          "button",
          { type: "button", class: "fire", onclick: () => void fire(t.name) },
          "Fire now",
        ),
        h(
          "button",
          {
            type: "button",
            class: "link show-tasks",
            "aria-expanded": tasks === undefined ? "false" : "true",
            onclick: () => void toggleTasks(t.name),
          },
          tasks === undefined ? "Show its tasks" : "Hide its tasks",
        ),
        tasks !== undefined &&
          h(
            "ul",
            { class: "trigger-tasks" },
            tasks.length === 0
              ? h("li", { class: "empty" }, "No tasks.")
              : tasks.map((task) =>
                  h(
                    "li",
                    {},
                    h(
                      "button",
                      {
                        type: "button",
                        class: "link",
                        "data-task": task.id,
                        onclick: () => void open(task.id),
                      },
                      `${shortId(task.id)} ${stateName(task.status?.state)}`,
                    ),
                  ),
                ),
          ),
      );
    }),
  );
}
