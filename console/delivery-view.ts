/**
 * A delivery in the timeline (docs/console.md "Delivering work"): a round of checks as one entry,
 * each check with how it ended, its exit code, its duration and its command, and its output's
 * tail folded under it (opened for a red check); a stage of the target step (push, pull request,
 * merge…) as its text and whatever fields it carries. The proof of work's panel lists its checks
 * the same way (`roundView`).
 */
import { h } from "./dom.js";
import {
  endWords,
  type CheckRun,
  labelOf,
  roundVerdict,
  type DeliveryEntry,
  type DeliveryStage,
} from "./delivery-model.js";
import { fieldsOf, type Field, type Shown } from "./proof-model.js";
import { duration } from "./words.js";

/** A value of a generic field: text, a link (http/https only), a list, nested fields. */
export function shownView(value: Shown): HTMLElement {
  switch (value.kind) {
    case "text":
      return h("span", { class: "value" }, value.text);
    case "link":
      return h(
        "a",
        { class: "value", href: value.href, target: "_blank", rel: "noopener noreferrer nofollow" },
        value.text,
      );
    case "list":
      return h(
        "ul",
        { class: "value-list" },
        value.items.map((v) => h("li", {}, shownView(v))),
      );
    case "fields":
      return fieldsView(value.fields);
  }
}

/** Fields as a definition list, each name and value on one line where they fit. */
export function fieldsView(fields: readonly Field[], cls = "fields"): HTMLElement {
  return h(
    "dl",
    { class: cls },
    fields.map((f) =>
      h(
        "div",
        { class: "field", "data-field": f.key },
        h("dt", {}, f.label),
        h("dd", {}, shownView(f.value)),
      ),
    ),
  );
}

/** One check's run: its verdict on the summary line, its output's tail inside. */
export function checkView(run: CheckRun): HTMLElement {
  const tail = run.outputTail.replace(/\n+$/, "");
  return h(
    "li",
    { class: "check", "data-check": run.check, "data-result": run.result },
    h(
      "details",
      // A red check's output is what the reader wants: opened at first; a reader's choice stays.
      { class: "check-run", open: run.result !== "passed" },
      h(
        "summary",
        {},
        h("span", { class: `badge check-${run.result}` }, run.result.replace("_", " ")),
        " ",
        h("strong", { class: "check-name" }, run.check),
        h(
          "span",
          { class: "meta" },
          ` ${endWords(run)} · ${duration(run.durationMs)} · `,
          h("code", { class: "check-command" }, run.command),
        ),
      ),
      tail === ""
        ? h("p", { class: "tool-empty" }, "No output.")
        : // Focusable: a long tail scrolls in its box, and a keyboard must reach it.
          h("pre", { class: "check-output", tabindex: 0 }, tail),
    ),
  );
}

/** The checks of one round, under a line saying how the round went. */
export function roundView(round: number, runs: readonly CheckRun[]): HTMLElement {
  return h(
    "div",
    { class: "delivery-round", "data-round": round },
    h(
      "p",
      { class: "round-head" },
      h("strong", {}, `Checks, round ${round}`),
      `: ${roundVerdict(runs)}`,
    ),
    h(
      "ul",
      { class: "checks" },
      runs.map((r) => checkView(r)),
    ),
  );
}

const stepWords = (step: string): string => labelOf(step);

function stageView(stage: Extract<DeliveryStage, { kind: "step" }>): HTMLElement {
  const fields = fieldsOf(stage.fields);
  return h(
    "li",
    { class: "step-stage" },
    h("p", { class: "text" }, stage.text),
    fields.length > 0 && fieldsView(fields),
  );
}

/** A delivery entry of the timeline: a round's checks, or a step's stages. */
export function deliveryView(entry: DeliveryEntry): HTMLElement {
  const group = entry.group;
  switch (group.kind) {
    case "round":
      return h(
        "div",
        { class: "entry delivery", "data-kind": "delivery" },
        roundView(
          group.round,
          entry.stages.flatMap((s) => (s.kind === "check" ? [s.run] : [])),
        ),
      );
    case "step":
      return h(
        "div",
        { class: "entry delivery delivery-step", "data-kind": "delivery", "data-step": group.step },
        h("p", { class: "round-head" }, h("strong", {}, `Delivery: ${stepWords(group.step)}`)),
        h(
          "ul",
          { class: "step-stages" },
          entry.stages.flatMap((s) => (s.kind === "step" ? [stageView(s)] : [])),
        ),
      );
  }
}
