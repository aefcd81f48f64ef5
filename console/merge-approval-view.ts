/**
 * A merge to approve (docs/console.md "Delivering work"): the summary as Markdown, the merge a
 * yes would make, the proof of work, then **Approve** (a permission `allow`: the server merges)
 * and **Reject** (a `deny` with the optional reason: the task completes, the branch kept, the
 * reason recorded). Where only an operator may approve and the viewer is not one, it says so.
 */
import { h } from "./dom.js";
import { fieldsView } from "./delivery-view.js";
import { markdownView } from "./markdown-view.js";
import { approverNote, mergeAnswer, type MergeAsk } from "./merge-approval.js";
import type { Answer } from "./prompt-view.js";
import { proofSection } from "./proof-view.js";

export function mergeForm(
  ask: MergeAsk,
  key: string,
  operator: boolean,
  answer: Answer,
): HTMLFormElement {
  const reason = h("input", {
    type: "text",
    id: "merge-reason",
    name: "reason",
    "aria-label": "Reason for a rejection (optional)",
  });
  const decide = (decision: "allow" | "deny") => () => {
    const sent = mergeAnswer(decision, reason.value);
    answer(sent.parts, sent.shown);
  };
  const note = approverNote(ask, operator);
  const form = h(
    "form",
    { class: "prompt merge-form", "aria-label": "Merge approval", tabindex: -1 },
    h("h3", {}, "Approve the merge?"),
    markdownView(ask.summary, `merge:${key}`, { class: "markdown merge-summary" }),
    ask.merge.length > 0 && fieldsView(ask.merge, "fields merge-facts"),
    note !== undefined && h("p", { class: "approver-note", role: "note" }, note),
    proofSection(ask.proof, `merge:${key}`, "merge-proof"),
    h("label", { class: "deny-reason" }, "Reason for a rejection (optional): ", reason),
    h(
      "div",
      { class: "actions" },
      h(
        "button",
        { type: "button", class: "primary approve", onclick: decide("allow") },
        "Approve merge",
      ),
      h("button", { type: "button", class: "danger reject", onclick: decide("deny") }, "Reject"),
    ),
  );
  // Enter in the reason field rejects: a reason goes only with a rejection.
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    decide("deny")();
  });
  return form;
}
