/**
 * The change an `Edit` or `MultiEdit` made, from its input (`old_string` → `new_string`,
 * docs/protocol.md "Tool calls"): a `file` artifact holds the file after the change only, so for
 * a file that existed before the task the version before is the one after with the edits undone,
 * last first. Where that cannot be told for sure (the new text is not in the file exactly once,
 * the content was not attached), the edits' own lines are the diff. Pure: no DOM.
 */
import { lineDiff, type DiffLine } from "./diff.js";

export interface Edit {
  readonly oldString: string;
  readonly newString: string;
  readonly replaceAll: boolean;
}

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (typeof v === "object" && v !== null ? (v as Rec) : {});

function editOf(v: unknown): Edit | undefined {
  const e = rec(v);
  return typeof e.old_string === "string" && typeof e.new_string === "string"
    ? { oldString: e.old_string, newString: e.new_string, replaceAll: e.replace_all === true }
    : undefined;
}

/** The edits of an `Edit` or `MultiEdit` call's input, in order; undefined for any other. */
export function editsOf(toolName: string, input: unknown): Edit[] | undefined {
  if (toolName === "Edit") {
    const e = editOf(input);
    return e === undefined ? undefined : [e];
  }
  if (toolName !== "MultiEdit") return undefined;
  const list = rec(input).edits;
  if (!Array.isArray(list)) return undefined;
  const edits = list.map(editOf);
  return edits.every((e) => e !== undefined) && edits.length > 0 ? edits : undefined;
}

/** Whether a call's `file_path` names the file artifact's `path` (workspace-relative or not). */
export function samePath(filePath: unknown, path: string): boolean {
  if (typeof filePath !== "string" || filePath === "" || path === "") return false;
  const a = filePath.replace(/\\/g, "/");
  const b = path.replace(/\\/g, "/");
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}

const count = (text: string, part: string): number => text.split(part).length - 1;

/**
 * The file before `edits`, from the file after them; undefined when it cannot be told for sure:
 * an edit's new text that is empty, or not in the file exactly once (a `replace_all` edit: its
 * new text found, and its old text not left in the file).
 */
export function beforeEdits(after: string, edits: readonly Edit[]): string | undefined {
  let text = after;
  for (const e of [...edits].reverse()) {
    if (e.newString === "" || e.oldString === e.newString) return undefined;
    const n = count(text, e.newString);
    if (e.replaceAll) {
      if (n === 0 || (e.oldString !== "" && text.includes(e.oldString))) return undefined;
      text = text.split(e.newString).join(e.oldString);
    } else {
      if (n !== 1) return undefined;
      text = text.replace(e.newString, () => e.oldString);
    }
  }
  return text;
}

/** The edits' own lines: each edit's old text out and new text in, a hunk line between edits. */
export function editLines(edits: readonly Edit[]): DiffLine[] {
  return edits.flatMap((e, i) => [
    ...(edits.length > 1
      ? [{ op: "hunk" as const, text: `edit ${i + 1} of ${edits.length}` }]
      : []),
    ...lineDiff(e.oldString, e.newString),
  ]);
}
