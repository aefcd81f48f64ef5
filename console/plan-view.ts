/**
 * A plan to approve (docs/control.md "Plan, then approve"): Claude planned in plan mode and asks
 * to go ahead. The plan is shown as Markdown; **Approve** sends a permission allow, which carries
 * it out; **Reject with feedback** sends a deny with the feedback as its reason (and as text),
 * which Claude revises the plan with. Feedback is required for a rejection: a bare "no" would
 * leave Claude nothing to revise with.
 */
import { permissionPart, textPart } from "./answers.js";
import { h } from "./dom.js";
import { markdownView } from "./markdown-view.js";
import type { Answer } from "./prompt-view.js";

export function planForm(plan: string, key: string, answer: Answer): HTMLFormElement {
  const feedback = h("textarea", {
    id: "plan-feedback",
    name: "feedback",
    rows: 2,
    "aria-label": "Feedback on the plan (sent with a rejection)",
    placeholder: "Also add a README…",
  });
  const error = h("p", { class: "form-error", role: "alert" });
  const reject = () => {
    const why = feedback.value.trim();
    if (why === "") {
      error.textContent = "Say what to change: Claude revises the plan with your feedback.";
      feedback.focus();
      return;
    }
    answer([textPart(why), permissionPart("deny", why)], `Rejected the plan: ${why}`);
  };
  const form = h(
    "form",
    { class: "prompt plan-form", "aria-label": "Claude's plan", tabindex: -1 },
    h("h3", {}, "Claude's plan: approve it to go ahead"),
    markdownView(plan, `plan:${key}`, { class: "markdown plan" }),
    h("label", { class: "plan-feedback" }, "Feedback for a rejection: ", feedback),
    error,
    h(
      "div",
      { class: "actions" },
      h(
        "button",
        {
          type: "button",
          class: "primary approve",
          onclick: () => answer([permissionPart("allow")], "Approved the plan"),
        },
        "Approve",
      ),
      h(
        "button",
        { type: "button", class: "danger reject", onclick: reject },
        "Reject with feedback",
      ),
    ),
  );
  // A submit can only mean the feedback: it rejects, never approves.
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    reject();
  });
  return form;
}
