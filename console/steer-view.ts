/**
 * The steering box of a working task (docs/control.md "Steer"), where the server's card offers
 * the `steer` control: a message Claude reads at its next tool boundary, or at once ("Now" stops
 * the step under way). The stream then shows it as a `steered` status ("You steered: …").
 */
import type { Task } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { CONTROL_KEYS } from "../src/contract/control.js";
import { textPart, userMessage } from "./answers.js";
import { controlOptions } from "./controls.js";
import { h } from "./dom.js";

/** Sends `text` to the working `task`, Claude reading it at the next tool boundary or `now`. */
export async function sendSteer(
  client: Client,
  task: Pick<Task, "id" | "contextId">,
  text: string,
  when: "next" | "now",
): Promise<void> {
  const message = userMessage([textPart(text)], { taskId: task.id, contextId: task.contextId });
  await client.sendMessage(
    {
      tenant: "",
      message: { ...message, metadata: { [CONTROL_KEYS.steer]: when } },
      configuration: undefined,
      metadata: undefined,
    },
    controlOptions,
  );
}

export function steerForm(send: (text: string, when: "next" | "now") => void): HTMLFormElement {
  const field = h("textarea", {
    id: "steer-text",
    name: "steer",
    rows: 2,
    "aria-label": "Steer Claude while it works",
    placeholder: "Also update the changelog…",
  });
  const now = h("input", { type: "checkbox", id: "steer-now", name: "now" });
  const form = h(
    "form",
    { class: "prompt steer-form", "aria-label": "Steer Claude" },
    h("h3", {}, "Steer Claude while it works"),
    field,
    h("label", { class: "option" }, now, " Now: stop the step under way"),
    h("button", { type: "submit", class: "primary" }, "Send to the running task"),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = field.value.trim();
    if (text === "") return;
    field.value = "";
    send(text, now.checked ? "now" : "next");
  });
  return form;
}
