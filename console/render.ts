/**
 * Draws the page from its state: the list, the open task (head, timeline, files), and the slot
 * under it (prompt-slot.ts: its prompt, the steering box, a rewind or fork panel), rebuilt only
 * when its key changes. What the controls do is the app's (`setHandlers`), so this module only
 * draws.
 */
import type { Part, Task } from "@a2a-js/sdk";
import { dryRunOf, offeredControls, taskControls } from "./controls.js";
import { controlButtons, forkPanel, rewindPanel } from "./control-panels.js";
import { replace } from "./dom.js";
import { patch } from "./dom-patch.js";
import { noticeTasks } from "./notify.js";
import { focusKey, refocus, ui } from "./page.js";
import { viewerIsOperator } from "./merge-approval.js";
import { mergeForm } from "./merge-approval-view.js";
import { planForm } from "./plan-view.js";
import { promptForm } from "./prompt-view.js";
import { slotOf, type Slot } from "./prompt-slot.js";
import { state } from "./state.js";
import { steerForm } from "./steer-view.js";
import { renderList } from "./task-list.js";
import { taskBody, taskHead } from "./task-view.js";

export interface PageHandlers {
  readonly open: (id: string) => void;
  readonly write: (contextId: string | undefined) => void;
  readonly more: () => void;
  readonly cancel: () => void;
  readonly steer: (text: string, when: "next" | "now") => void;
  readonly answer: (parts: Part[], shown: string) => void;
  /** Opens the rewind panel of the open task (its dry run first). */
  readonly rewind: () => void;
  readonly fork: () => void;
  /** Sends the panel's prompt: the rewind or the fork goes ahead. */
  readonly confirmPanel: (prompt: string) => void;
  readonly closePanel: () => void;
}

let on: PageHandlers | undefined;

export function setHandlers(handlers: PageHandlers): void {
  on = handlers;
}

function slotNode(slot: Slot, handlers: PageHandlers, task: Task): HTMLElement | undefined {
  switch (slot.kind) {
    case "none":
      return undefined;
    case "answer":
      return promptForm(slot.request, handlers.answer, slot.peer);
    case "plan":
      return planForm(slot.plan, task.id, handlers.answer);
    case "merge":
      return mergeForm(slot.ask, task.id, slot.operator, handlers.answer);
    case "steer":
      return steerForm(handlers.steer);
    case "panel": {
      const panel = { confirm: handlers.confirmPanel, close: handlers.closePanel };
      if (slot.panel.kind === "fork") return forkPanel(panel);
      const phase = slot.panel.phase;
      return rewindPanel(phase, phase.step === "ready" ? dryRunOf(phase.dryRun) : undefined, panel);
    }
  }
}

export function renderTask(): void {
  const model = state.model;
  const handlers = on;
  if (handlers === undefined) return;
  // The open task is followed live: the list shows its latest state before the next poll does.
  if (model !== undefined)
    state.tasks = state.tasks.map((t) =>
      t.id === model.task.id
        ? { ...t, status: model.task.status, metadata: model.task.metadata }
        : t,
    );
  // Read before anything changes: a read after a change lays the whole page out at once.
  const atBottom = ui.view.scrollHeight - ui.view.scrollTop - ui.view.clientHeight < 40;
  renderList(ui.list, state.tasks, model?.task.id, state.filter, {
    open: (t) => handlers.open(t.id),
    write: handlers.write,
    more: state.nextPage === "" ? undefined : handlers.more,
  });
  noticeTasks(state.tasks, handlers.open);
  if (model === undefined) return;
  const focused = focusKey();
  const offered = offeredControls(state.conn?.card);
  const head = taskHead(model, { cancel: handlers.cancel });
  const buttons = controlButtons(taskControls(offered, model.task), handlers);
  if (buttons !== undefined) head.append(buttons);
  patch(ui.view, head, ...taskBody(model));
  refocus(focused);
  if (atBottom) ui.view.scrollTop = ui.view.scrollHeight;
  const operator = viewerIsOperator([model.task, ...state.tasks]);
  const slot = slotOf(model.task, offered.has("steer"), state.panel, operator);
  if (slot.key === state.promptKey) return;
  state.promptKey = slot.key;
  replace(ui.prompt, slotNode(slot, handlers, model.task));
  // Focus goes to the prompt, not to a button in it: a stray Enter must not allow anything.
  if (slot.kind !== "steer") ui.prompt.querySelector<HTMLElement>("form")?.focus();
}

/** Renders at the next frame: a burst of streamed chunks costs one render. */
export function scheduleRender(): void {
  if (state.frame !== undefined) return;
  state.frame = requestAnimationFrame(() => {
    state.frame = undefined;
    renderTask();
  });
}
