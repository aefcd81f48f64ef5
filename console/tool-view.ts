/**
 * One tool call in the timeline, collapsible: what Claude did in words ("Running `npm test`"),
 * then its input and its output (docs/protocol.md "Tool calls"). A long output shows its last
 * lines first with a "Show all"; a Write/Edit shows its path only, since its change is shown once,
 * in the task's files. A subagent (`Task`/`Agent`) call shows its prompt, then the calls the
 * subagent made, nested under it (tool-nesting.ts), then its report: out of the runtime's frame
 * (subagent-report.ts), rendered as Markdown.
 */
import { toolWords } from "../src/client/tool-summary.js";
import { h } from "./dom.js";
import { markdownView } from "./markdown-view.js";
import { subagentReport, usageWords } from "./subagent-report.js";
import type { ToolOutcome } from "./task-model.js";
import type { Nesting, ToolCall } from "./tool-nesting.js";

/** Lines of output shown before "Show all". */
export const OUTPUT_LINES = 12;

// The calls the reader opened stay open, and "Show all" stays shown, over re-renders.
const opened = new Set<string>();
const expanded = new Set<string>();

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (typeof v === "object" && v !== null ? (v as Rec) : {});

/** The input worth showing beside the words: a Task's prompt, an Edit's strings, else JSON. */
function inputDetail(toolName: string, input: unknown): HTMLElement | undefined {
  const i = rec(input);
  switch (toolName) {
    case "Bash":
      return typeof i.description === "string"
        ? h("p", { class: "tool-note" }, i.description)
        : undefined;
    case "Write":
    case "Edit":
    case "MultiEdit":
    case "Read":
      return undefined;
    case "Task":
    case "Agent":
      return typeof i.prompt === "string"
        ? h("blockquote", { class: "subagent" }, h("p", {}, i.prompt))
        : undefined;
    default:
      return input === undefined || Object.keys(i).length === 0
        ? undefined
        : // Focusable: a long input scrolls in its box, and a keyboard must reach it.
          h("pre", { class: "tool-input", tabindex: 0 }, JSON.stringify(input, null, 2));
  }
}

const isSubagent = (toolName: string) => toolName === "Task" || toolName === "Agent";

/** A subagent's report, out of the runtime's frame, rendered as Markdown; its usage in words. */
function reportView(id: string, output: string): HTMLElement {
  const { report, usage } = subagentReport(output);
  const words = usage === undefined ? "" : usageWords(usage);
  return h(
    "div",
    { class: "tool-output subagent-report" },
    h("span", { class: "label" }, "Report"),
    report === ""
      ? h("p", { class: "tool-empty" }, "No report.")
      : markdownView(report, `report:${id}`, { class: "markdown report" }),
    words !== "" && h("p", { class: "note" }, `The subagent used ${words}.`),
  );
}

function outputView(id: string, outcome: ToolOutcome | undefined): HTMLElement {
  if (outcome?.output === undefined) {
    return h("p", { class: "tool-pending" }, outcome?.refused ?? "No output yet.");
  }
  const text = outcome.output.replace(/\n+$/, "");
  if (text === "") return h("p", { class: "tool-empty" }, "No output.");
  const lines = text.split("\n");
  const all = expanded.has(id) || lines.length <= OUTPUT_LINES;
  const shown = all ? text : lines.slice(-OUTPUT_LINES).join("\n");
  const note = outcome.truncated
    ? `The server cut this output at its limit (${outcome.bytes ?? "?"} bytes in all).`
    : undefined;
  return h(
    "div",
    { class: "tool-output" },
    h("span", { class: "label" }, outcome.isError === true ? "Error" : "Output"),
    h("pre", { class: `output${outcome.isError === true ? " error" : ""}`, tabindex: 0 }, shown),
    !all &&
      h(
        "button",
        {
          type: "button",
          class: "link",
          onclick: (e: Event) => {
            expanded.add(id);
            const pre = (e.currentTarget as HTMLElement).parentElement?.querySelector("pre");
            if (pre) pre.textContent = text;
            (e.currentTarget as HTMLElement).remove();
          },
        },
        `Show all ${lines.length} lines`,
      ),
    note !== undefined && h("p", { class: "note" }, note),
  );
}

/** A call with the calls made inside it (a subagent's), each nested under its own parent. */
export function toolTree(
  entry: ToolCall,
  tools: ReadonlyMap<string, ToolOutcome>,
  nesting: Nesting,
): HTMLElement {
  const inner = (nesting.children.get(entry.toolUseId) ?? []).map((c) =>
    toolTree(c, tools, nesting),
  );
  return toolEntry(entry, tools.get(entry.toolUseId), inner);
}

export function toolEntry(
  entry: { toolUseId: string; toolName: string; input: unknown },
  outcome: ToolOutcome | undefined,
  inner: readonly HTMLElement[] = [],
): HTMLElement {
  const words = toolWords(entry.toolName, entry.input);
  const state =
    outcome?.refused !== undefined
      ? "refused"
      : outcome?.output === undefined
        ? "running"
        : outcome.isError === true
          ? "failed"
          : "done";
  return h(
    "details",
    {
      class: "entry status tool",
      "data-kind": "tool_use",
      "data-tool": entry.toolName,
      "data-tool-state": state,
      open: opened.has(entry.toolUseId),
      ontoggle: (e: Event) => {
        if ((e.currentTarget as HTMLDetailsElement).open) opened.add(entry.toolUseId);
        else opened.delete(entry.toolUseId);
      },
    },
    h(
      "summary",
      {},
      h("span", { class: "tool-words" }, words.verb),
      words.subject !== undefined && [" ", h("code", { class: "tool-subject" }, words.subject)],
      words.where !== undefined && [" in ", h("code", {}, words.where)],
      " ",
      h("span", { class: "badge tool-name" }, entry.toolName),
      inner.length > 0 &&
        h("span", { class: "tool-count" }, `${inner.length} call${inner.length === 1 ? "" : "s"}`),
      state !== "done" && h("span", { class: `tool-state ${state}` }, state),
    ),
    inputDetail(entry.toolName, entry.input),
    inner.length > 0 &&
      h(
        "div",
        { class: "subagent-calls", role: "group", "aria-label": "The subagent's calls" },
        inner,
      ),
    entry.toolName === "Write" || entry.toolName === "Edit" || entry.toolName === "MultiEdit"
      ? h("p", { class: "tool-note" }, "The change is shown under Files changed.")
      : isSubagent(entry.toolName) && outcome?.output !== undefined && outcome.isError !== true
        ? reportView(entry.toolUseId, outcome.output)
        : outputView(entry.toolUseId, outcome),
  );
}
