/**
 * An input-required task's prompt as a form: a question with its options (radio buttons, or
 * check boxes where the question is multi-select, plus a free answer), or a permission request
 * (tool, input, reason) with Allow / Deny and an optional reason. What it sends is the structured
 * answer of docs/protocol.md "Answering". A prompt a delegated peer asked (docs/peers.md) says so, with the
 * peer's name: the answer goes to that agent, not to Claude.
 */
import type { Part } from "@a2a-js/sdk";
import {
  answersPart,
  permissionPart,
  textPart,
  type Choices,
  type InputRequest,
  type Question,
} from "./answers.js";
import { h } from "./dom.js";

/** Sends an answer: the parts, and the text the timeline shows for it. */
export type Answer = (parts: Part[], shown: string) => void;

function questionFieldset(q: Question, index: number): HTMLFieldSetElement {
  const name = `q${index}`;
  const type = q.multiSelect === true ? "checkbox" : "radio";
  return h(
    "fieldset",
    { class: "question", "data-question": q.question },
    h("legend", {}, q.header !== undefined ? `${q.header}: ${q.question}` : q.question),
    q.multiSelect === true && h("p", { class: "hint" }, "Choose one or more."),
    (q.options ?? []).map((o) =>
      h(
        "label",
        { class: "option" },
        h("input", { type, name, value: o.label }),
        h("span", { class: "label" }, o.label),
        o.description !== undefined && h("span", { class: "description" }, o.description),
      ),
    ),
    h(
      "label",
      { class: "other" },
      "Other: ",
      h("input", {
        type: "text",
        name: `${name}-other`,
        "aria-label": `Another answer to: ${q.question}`,
      }),
    ),
  );
}

function choicesOf(form: HTMLFormElement, questions: readonly Question[]): Choices {
  const choices: Record<string, string[]> = {};
  questions.forEach((q, i) => {
    const picked = [...form.querySelectorAll<HTMLInputElement>(`input[name="q${i}"]:checked`)].map(
      (e) => e.value,
    );
    const other =
      form.querySelector<HTMLInputElement>(`input[name="q${i}-other"]`)?.value.trim() ?? "";
    choices[q.question] = other !== "" ? [...picked, other] : picked;
  });
  return choices;
}

/** Who asks: Claude, or the delegated peer by its configured name. */
const askerOf = (peer: string | undefined): string =>
  peer === undefined ? "Claude" : `Peer agent ${peer}`;

/** The line naming the peer a delegated prompt came from (nothing for Claude's own). */
const fromPeer = (peer: string | undefined) =>
  peer !== undefined &&
  h(
    "p",
    { class: "from-peer", "data-peer": peer },
    "Asked by the delegated agent ",
    h("strong", { class: "peer-name" }, peer),
    ": your answer goes to it.",
  );

function questionForm(
  questions: readonly Question[],
  answer: Answer,
  peer: string | undefined,
): HTMLFormElement {
  const error = h("p", { class: "form-error", role: "alert" });
  const form = h(
    "form",
    { class: "prompt question-form", "aria-label": `${askerOf(peer)} asks`, tabindex: -1 },
    h("h3", {}, `${askerOf(peer)} asks`),
    fromPeer(peer),
    questions.map(questionFieldset),
    error,
    h("button", { type: "submit", class: "primary" }, "Send answer"),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const choices = choicesOf(form, questions);
    const built = answersPart(questions, choices);
    if (!built.ok) {
      error.textContent = `Choose an answer to: ${built.missing}`;
      return;
    }
    const shown = questions.map((q) => (choices[q.question] ?? []).join(", ")).join("; ");
    answer([textPart(shown), built.part], shown);
  });
  return form;
}

const inputText = (input: unknown): string => {
  if (typeof input === "object" && input !== null) {
    const i = input as Record<string, unknown>;
    if (typeof i.command === "string") return `$ ${i.command}`;
  }
  return JSON.stringify(input, null, 2) ?? "";
};

function permissionForm(
  req: Extract<InputRequest, { kind: "permission" }>,
  answer: Answer,
  peer: string | undefined,
): HTMLFormElement {
  const reason = h("input", {
    type: "text",
    name: "reason",
    "aria-label": "Reason (sent with a deny)",
  });
  const decide = (decision: "allow" | "deny") => () => {
    const why = reason.value.trim();
    const shown = decision === "allow" ? "Allow" : why === "" ? "Deny" : `Deny: ${why}`;
    answer([permissionPart(decision, why)], shown);
  };
  const form = h(
    "form",
    { class: "prompt permission-form", "aria-label": "Permission request", tabindex: -1 },
    h("h3", {}, `Permission: ${req.title ?? `${askerOf(peer)} wants to use ${req.toolName}`}`),
    fromPeer(peer),
    h(
      "dl",
      {},
      h("dt", {}, "Tool"),
      h("dd", { class: "tool" }, req.toolName),
      h("dt", {}, "Input"),
      // Focusable: a long input (a Write's content) scrolls in its box; a keyboard reaches it.
      h("dd", {}, h("pre", { class: "input", tabindex: 0 }, inputText(req.input))),
      req.decisionReason !== undefined && [
        h("dt", {}, "Reason"),
        h("dd", { class: "reason" }, req.decisionReason),
      ],
    ),
    h("label", { class: "deny-reason" }, "Reason for a deny (optional): ", reason),
    h(
      "div",
      { class: "actions" },
      h("button", { type: "button", class: "primary allow", onclick: decide("allow") }, "Allow"),
      h("button", { type: "button", class: "danger deny", onclick: decide("deny") }, "Deny"),
    ),
  );
  // Enter in the reason field denies: a reason goes only with a deny.
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    decide("deny")();
  });
  return form;
}

function textForm(
  req: Extract<InputRequest, { kind: "text" }>,
  answer: Answer,
  peer: string | undefined,
): HTMLFormElement {
  const field = h("textarea", { name: "answer", rows: 2, "aria-label": "Your answer" });
  const form = h(
    "form",
    { class: "prompt text-form", "aria-label": `${askerOf(peer)} asks`, tabindex: -1 },
    h("h3", {}, `${askerOf(peer)} asks`),
    fromPeer(peer),
    h("p", {}, req.text),
    field,
    h("button", { type: "submit", class: "primary" }, "Send answer"),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = field.value.trim();
    if (text !== "") answer([textPart(text)], text);
  });
  return form;
}

/**
 * The form for `req` (asked by the delegated `peer`, when one asked it); every control reachable
 * with Tab, Enter/Space to choose.
 */
export function promptForm(req: InputRequest, answer: Answer, peer?: string): HTMLFormElement {
  switch (req.kind) {
    case "question":
      return questionForm(req.questions, answer, peer);
    case "permission":
      return permissionForm(req, answer, peer);
    case "merge":
      // A merge approval is answered in words until its own Approve/Reject form (docs/delivery.md).
      return textForm({ kind: "text", text: req.text }, answer, peer);
    case "text":
      return textForm(req, answer, peer);
  }
}
