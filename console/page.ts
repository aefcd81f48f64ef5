/**
 * The page's fixed parts (index.html): where each thing is rendered, the trouble banner (server
 * unreachable, a token needed, refused), and keeping the focus over a re-render of the task.
 */
import type { Trouble } from "./connection.js";
import { storedToken } from "./connection.js";
import { byId, h, replace } from "./dom.js";

export const ui = {
  list: byId("task-list"),
  view: byId("task-view"),
  prompt: byId("task-prompt"),
  error: byId("task-error"),
  trouble: byId("trouble"),
  tokenForm: byId<HTMLFormElement>("token-form"),
  tokenInput: byId<HTMLInputElement>("token-input"),
  forget: byId<HTMLButtonElement>("forget-token"),
  notify: byId<HTMLButtonElement>("notify"),
  agent: byId("agent-name"),
  connection: byId("connection"),
  composer: byId<HTMLFormElement>("composer"),
  composerText: byId<HTMLTextAreaElement>("composer-text"),
  composerTarget: byId("composer-target"),
  composerNew: byId<HTMLButtonElement>("composer-new"),
  /** "Plan first", where the card lets a new task ask for plan mode (docs/control.md). */
  composerPlan: byId("composer-plan"),
  composerPlanFirst: byId<HTMLInputElement>("composer-plan-first"),
};

const TROUBLE_TEXT: Record<Trouble["kind"], string> = {
  unreachable: "The server cannot be reached. Is it running? The page retries every few seconds.",
  token: "This server needs a bearer token: enter one below (it is kept in this tab only).",
  forbidden: "The server refused this caller (403).",
  error: "The server answered with an error.",
};

const LIST_TEXT: Record<Trouble["kind"], string> = {
  unreachable: "The tasks show here once the server answers.",
  token: "Sign in with a token to see the tasks.",
  forbidden: "This caller may not list tasks.",
  error: "The tasks could not be read.",
};

const CONNECTION_TEXT: Record<Trouble["kind"], string> = {
  unreachable: "unreachable",
  token: "not signed in",
  forbidden: "refused",
  error: "error",
};

export function showTrouble(t: Trouble | undefined): void {
  ui.trouble.hidden = t === undefined;
  ui.tokenForm.hidden = t?.kind !== "token" && t?.kind !== "forbidden";
  ui.connection.textContent = t === undefined ? "connected" : CONNECTION_TEXT[t.kind];
  ui.connection.dataset.state = t?.kind ?? "ok";
  if (t !== undefined) {
    replace(
      ui.trouble,
      h("strong", {}, TROUBLE_TEXT[t.kind]),
      " ",
      h("span", { class: "detail" }, t.detail),
    );
    ui.trouble.dataset.kind = t.kind;
    // The list cannot load until this is solved: it says so instead of "Loading tasks…".
    if (ui.list.querySelector(".task-row") === null)
      replace(ui.list, h("p", { class: "empty" }, LIST_TEXT[t.kind]));
  }
  ui.forget.hidden = storedToken() === undefined;
}

/** What has the focus inside the task view (by id, or a file's path), to keep it over a render. */
export function focusKey(): string | undefined {
  const el = document.activeElement;
  if (!(el instanceof HTMLElement) || !ui.view.contains(el)) return undefined;
  if (el.id !== "") return `#${el.id}`;
  const path = el.closest("details")?.getAttribute("data-path");
  return path === null || path === undefined
    ? undefined
    : `details[data-path="${CSS.escape(path)}"] > summary`;
}

export function refocus(key: string | undefined): void {
  if (key !== undefined) ui.view.querySelector<HTMLElement>(key)?.focus();
}
