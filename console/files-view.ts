/**
 * A task's file artifacts with a diff view, and its `text/x-diff` artifacts (a unified diff the
 * server made, e.g. of a worktree branch). Each file is a `<details>`: keyboard-openable.
 */
import { diffStat, lineDiff, parseUnifiedDiff, withContext, type DiffLine } from "./diff.js";
import { h } from "./dom.js";
import { editLines } from "./edit-diff.js";
import type { FileView, TaskModel } from "./task-model.js";

const MARK = { same: " ", add: "+", del: "-", hunk: "", file: "" } as const;

// The view re-renders on every streamed chunk: each file version is diffed once, and a file the
// reader opened stays open.
const opened = new Set<string>();
const diffs = new WeakMap<FileView, DiffLine[]>();
function diffOf(file: FileView): DiffLine[] {
  let lines = diffs.get(file);
  if (lines === undefined) {
    lines =
      file.edits !== undefined
        ? editLines(file.edits)
        : file.content === undefined
          ? []
          : lineDiff(file.previous, file.content);
    diffs.set(file, lines);
  }
  return lines;
}

export function diffTable(lines: readonly DiffLine[]): HTMLElement {
  return h(
    "pre",
    { class: "diff", tabindex: 0 },
    lines.map((l) => h("span", { class: `line ${l.op}` }, `${MARK[l.op]}${l.text}\n`)),
  );
}

function fileBody(file: FileView): HTMLElement {
  if (file.edits !== undefined) {
    // The call's edits could not be undone on the file: their own lines are the change.
    return h(
      "div",
      {},
      h(
        "p",
        { class: "note" },
        "The lines the edit changed (the file before it never reached the page).",
      ),
      diffTable(diffOf(file)),
    );
  }
  if (file.content === undefined)
    return h("p", { class: "note" }, file.note ?? "No content attached.");
  if (file.previous === undefined && file.operation === "modified") {
    // The artifact holds the file after the change; the version before it never reached the page.
    return h(
      "div",
      {},
      h(
        "p",
        { class: "note" },
        "Modified before this page saw an earlier version: the whole file as it is now.",
      ),
      diffTable(lineDiff(file.content, file.content)),
    );
  }
  return diffTable(withContext(diffOf(file)));
}

function fileItem(file: FileView): HTMLElement {
  const { added, removed } = diffStat(diffOf(file));
  const stat =
    file.content === undefined && file.edits === undefined
      ? `${file.size} bytes`
      : `+${added} −${removed}`;
  return h(
    "details",
    {
      class: "file",
      "data-path": file.path,
      open: opened.has(file.artifactId),
      ontoggle: (e: Event) => {
        const el = e.currentTarget as HTMLDetailsElement;
        if (el.open) opened.add(file.artifactId);
        else opened.delete(file.artifactId);
      },
    },
    h(
      "summary",
      {},
      h("span", { class: `badge op-${file.operation}` }, file.operation),
      h("code", { class: "path" }, file.path),
      h(
        "span",
        { class: "meta" },
        [file.tool, stat, file.truncated && "truncated"].filter(Boolean).join(" · "),
      ),
    ),
    fileBody(file),
  );
}

/** The files section, or nothing when the task wrote no file and has no diff. */
export function filesSection(model: TaskModel): HTMLElement | undefined {
  if (model.files.size === 0 && model.diffs.size === 0) return undefined;
  return h(
    "section",
    { class: "files", "aria-label": "Files changed" },
    h("h3", {}, "Files changed"),
    [...model.diffs.values()].map((d) =>
      h(
        "details",
        { class: "file x-diff", open: true },
        h(
          "summary",
          {},
          h("span", { class: "badge" }, "diff"),
          h("code", { class: "path" }, d.name),
        ),
        diffTable(parseUnifiedDiff(d.text)),
      ),
    ),
    // A worktree task's diff already holds every file it changed: the files are not shown again.
    model.diffs.size > 0 ? [] : [...model.files.values()].map(fileItem),
  );
}
