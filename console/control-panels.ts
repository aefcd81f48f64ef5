/**
 * The task controls of an ended task (docs/control.md "Rewind" and "Fork"), where the card offers
 * them: the buttons in the task's head, and the panel each opens under the timeline. A rewind
 * shows its dry run first (the diff it would apply, nothing changed yet) and goes ahead only with
 * the new prompt the reader writes; a fork asks for the new conversation's first prompt.
 */
import type { DryRun, TaskControl } from "./controls.js";
import { h } from "./dom.js";
import { parseUnifiedDiff } from "./diff.js";
import { diffTable } from "./files-view.js";
import type { RewindPhase } from "./prompt-slot.js";

export interface ControlHandlers {
  readonly rewind: () => void;
  readonly fork: () => void;
}

/** The head's buttons for the controls this task takes (nothing when none). */
export function controlButtons(controls: readonly TaskControl[], on: ControlHandlers) {
  if (controls.length === 0) return undefined;
  return h(
    "div",
    { class: "task-controls", role: "group", "aria-label": "Go back or branch off" },
    controls.includes("rewind") &&
      h(
        "button",
        { type: "button", id: "rewind", onclick: on.rewind },
        "Rewind to before this task",
      ),
    controls.includes("fork") &&
      h("button", { type: "button", id: "fork", onclick: on.fork }, "Fork into a new conversation"),
  );
}

export interface PanelHandlers {
  readonly confirm: (prompt: string) => void;
  readonly close: () => void;
}

/** A prompt box with its send and close buttons (the panel's last part). */
function promptBox(id: string, label: string, send: string, on: PanelHandlers): HTMLElement[] {
  const field = h("textarea", { id, name: "prompt", rows: 2, "aria-label": label });
  const submit = h("button", { type: "submit", class: "primary" }, send);
  return [
    h("label", { class: "panel-prompt", for: id }, label),
    field,
    h(
      "div",
      { class: "actions" },
      submit,
      h("button", { type: "button", class: "close", onclick: on.close }, "Cancel"),
    ),
  ];
}

function panelForm(
  cls: string,
  label: string,
  parts: (HTMLElement | undefined)[],
  on: PanelHandlers,
) {
  const form = h(
    "form",
    { class: `prompt ${cls}`, "aria-label": label, tabindex: -1 },
    parts.filter((p) => p !== undefined),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = form.querySelector("textarea")?.value.trim() ?? "";
    if (text !== "") on.confirm(text);
  });
  return form;
}

function dryRunView(d: DryRun): HTMLElement {
  switch (d.kind) {
    case "diff":
      return d.diff.trim() === ""
        ? h(
            "p",
            { class: "dry-run-none" },
            "No file changed since then: only the conversation goes back.",
          )
        : h(
            "details",
            { class: "file x-diff dry-run-diff", open: true },
            h("summary", {}, "What the rewind would undo in the files"),
            diffTable(parseUnifiedDiff(d.diff)),
          );
    case "summary":
      return h("p", { class: "dry-run-summary" }, d.text);
    case "refused":
      return h("p", { class: "form-error dry-run-refused", role: "alert" }, d.reason);
  }
}

/** The rewind panel: its dry run checking, then shown with the new prompt's box, or refused. */
export function rewindPanel(phase: RewindPhase, dryRun: DryRun | undefined, on: PanelHandlers) {
  const body =
    phase.step === "checking"
      ? h("p", { class: "checking", role: "status" }, "Checking what a rewind would change…")
      : phase.step === "failed"
        ? h("p", { class: "form-error dry-run-refused", role: "alert" }, phase.reason)
        : dryRun === undefined
          ? undefined
          : dryRunView(dryRun);
  const usable = phase.step === "ready" && dryRun?.kind !== "refused";
  return panelForm(
    "rewind-form",
    "Rewind to before this task",
    [
      h("h3", {}, "Rewind to before this task"),
      h(
        "p",
        { class: "hint" },
        "Claude forgets this task and the ones after it, and the files go back to how they were before it. Nothing changes until you send the new prompt.",
      ),
      body,
      ...(usable
        ? promptBox("rewind-prompt", "New prompt, instead of this task", "Rewind and send", on)
        : [
            h(
              "div",
              { class: "actions" },
              h("button", { type: "button", class: "close", onclick: on.close }, "Close"),
            ),
          ]),
    ],
    on,
  );
}

/** The fork panel: the first prompt of the new conversation. */
export function forkPanel(on: PanelHandlers) {
  return panelForm(
    "fork-form",
    "Fork into a new conversation",
    [
      h("h3", {}, "Fork into a new conversation"),
      h(
        "p",
        { class: "hint" },
        "A new conversation goes on from the end of this task; this one stays as it is.",
      ),
      ...promptBox("fork-prompt", "First prompt of the new conversation", "Fork and send", on),
    ],
    on,
  );
}
