/**
 * The search box and the filters above the list, the links of a conversation
 * (`#conversation=<id>`) and a task (`#task=<id>`) that a reader can share, and the workspace
 * switcher: with workspaces, every console of the server the caller may reach (`GET /agents`).
 */
import { consoleFetch, storedToken } from "./connection.js";
import { byId, h, replace } from "./dom.js";
import type { ListFilter } from "./list-filter.js";

const search = byId<HTMLInputElement>("search");
const stateSel = byId<HTMLSelectElement>("filter-state");
const originSel = byId<HTMLSelectElement>("filter-origin");
const owner = byId<HTMLInputElement>("filter-owner");
const scope = byId("filter-scope");

const hashParam = (name: string): string =>
  new URLSearchParams(location.hash.slice(1)).get(name) ?? "";

function current(): ListFilter {
  return {
    query: search.value,
    state: stateSel.value,
    origin: originSel.value,
    owner: owner.value.trim(),
    contextId: hashParam("conversation"),
  };
}

/** Calls `changed` with the filter whenever a control or the address changes it. */
export function wireFinding(
  changed: (f: ListFilter) => void,
  open: (taskId: string) => void,
): void {
  const update = () => {
    const f = current();
    scope.hidden = f.contextId === "";
    changed(f);
  };
  for (const el of [search, owner]) el.addEventListener("input", update);
  for (const el of [stateSel, originSel]) el.addEventListener("change", update);
  byId<HTMLButtonElement>("filter-all").addEventListener("click", () => {
    history.replaceState(null, "", location.pathname + location.search);
    update();
  });
  window.addEventListener("hashchange", () => {
    const task = hashParam("task");
    if (task !== "") open(task);
    update();
  });
  update();
  void workspaces();
}

/** The switcher, on a workspace's console (`/agents/<name>/console/`) only. */
async function workspaces(): Promise<void> {
  const m = /^(.*)\/agents\/([^/]+)\/console\/?$/.exec(location.pathname);
  if (m === null) return;
  try {
    const res = await consoleFetch(storedToken())(`${m[1] ?? ""}/agents`, {
      headers: { Accept: "application/json" },
    });
    const body = (await res.json()) as unknown;
    const list = Array.isArray(body)
      ? body
      : ((body as { workspaces?: unknown[] } | null)?.workspaces ?? []);
    const names = list.flatMap((w) =>
      typeof (w as { name?: unknown }).name === "string" ? [(w as { name: string }).name] : [],
    );
    if (names.length < 2) return;
    const here = decodeURIComponent(m[2] ?? "");
    const select = h(
      "select",
      { id: "workspace", "aria-label": "Workspace" },
      names.map((n) => h("option", { value: n, selected: n === here }, n)),
    );
    select.addEventListener("change", () => {
      location.href = `${m[1] ?? ""}/agents/${encodeURIComponent(select.value)}/console/`;
    });
    replace(byId("workspace-switch"), h("label", { for: "workspace" }, "Workspace "), select);
  } catch {
    // No listing for this caller: the console of this workspace alone.
  }
}
