/**
 * The proof of work as a panel of its own under the timeline (docs/console.md "Delivering
 * work"): where the work is (target, branch, commits, rounds), the files changed, every check of
 * every round (as the timeline shows a round), then every other field a step added, shown
 * generically (a pull request's URL as a link). An artifact whose JSON cannot be read shows its
 * Markdown instead. A task reopened after its events are gone still shows every check here.
 */
import { h } from "./dom.js";
import { byRound } from "./delivery-model.js";
import { fieldsView, roundView, shownView } from "./delivery-view.js";
import { markdownView } from "./markdown-view.js";
import type { ProofView } from "./proof-model.js";

/** The panel of `proof` (none without one); `id`: the page's only one, or one inside a prompt. */
export function proofSection(
  proof: ProofView | undefined,
  key: string,
  id = "proof-of-work",
): HTMLElement | undefined {
  if (proof === undefined) return undefined;
  const body = proof.structured
    ? [
        fieldsView(proof.facts, "fields proof-facts"),
        h("h4", {}, "Files changed"),
        proof.files.length === 0
          ? h("p", { class: "empty" }, "None.")
          : h(
              "ul",
              { class: "proof-files" },
              proof.files.map((f) =>
                h(
                  "li",
                  {},
                  h("code", { class: "path" }, f.path),
                  f.change !== "" && ` (${f.change})`,
                ),
              ),
            ),
        h("h4", {}, "Checks"),
        proof.checks.length === 0
          ? h("p", { class: "empty" }, "None configured.")
          : byRound(proof.checks).map((r) => roundView(r.round, r.runs)),
        proof.extras.map((f) =>
          h(
            "div",
            { class: "proof-extra", "data-field": f.key },
            h("h4", {}, f.label),
            shownView(f.value),
          ),
        ),
      ]
    : [markdownView(proof.markdown, `proof:${key}`, { class: "markdown proof-markdown" })];
  return h(
    "section",
    { class: "proof", id, "aria-label": "Proof of work" },
    h("h3", {}, "Proof of work"),
    body,
  );
}
