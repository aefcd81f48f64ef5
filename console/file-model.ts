/**
 * A task's files as the console shows them: a `file` artifact read into a `FileView` (its text,
 * the version before it for the diff), and the `text/x-diff` artifacts the server makes. The
 * version before a file's first change in the task is the one the page saw before, or, for a
 * file that existed before the task, the one after with the call's edits undone (edit-diff.ts).
 * Pure: no DOM.
 */
import type { Artifact } from "@a2a-js/sdk";
import { beforeEdits, type Edit } from "./edit-diff.js";

export interface FileView {
  readonly artifactId: string;
  readonly path: string;
  readonly operation: string;
  readonly tool: string;
  readonly mediaType: string;
  readonly size: number;
  readonly truncated: boolean;
  /** The content as text, when it is text and attached; undefined for binary or a note. */
  readonly content: string | undefined;
  /** The version before this one: the page saw it, or the call's edits were undone. */
  readonly previous: string | undefined;
  /**
   * The edits of the `Edit`/`MultiEdit` call that wrote a file the page saw no version of,
   * when they could not be undone on its content: its diff is then the edits' own lines.
   */
  readonly edits: readonly Edit[] | undefined;
  /** The note in place of the content (over `artifacts.maxFileBytes`), or a binary's size. */
  readonly note: string | undefined;
}

const decoder = new TextDecoder("utf-8", { fatal: true });
const TEXTUAL =
  /^(text\/|application\/(json|xml|javascript|x-sh|toml|yaml|x-yaml)|.*\+(json|xml)$)/;

/** The text of a part: a text part, or raw bytes that decode as UTF-8 (undefined otherwise). */
export function partText(
  part: Artifact["parts"][number] | undefined,
  mediaType: string,
): string | undefined {
  const c = part?.content;
  if (c?.$case === "text") return c.value;
  if (c?.$case !== "raw") return undefined;
  if (!TEXTUAL.test(mediaType) && mediaType !== "") return undefined;
  try {
    return decoder.decode(c.value as Uint8Array);
  } catch {
    return undefined;
  }
}

export const DIFF_TYPE = "text/x-diff";

/** A unified diff the server made (worktree isolation's `diff` artifact, `text/x-diff`). */
export function isDiff(artifact: Artifact): boolean {
  return (
    artifact.metadata?.kind === "diff" || artifact.parts.some((p) => p.mediaType === DIFF_TYPE)
  );
}

/** The path a `file` artifact names (workspace-relative, or absolute outside it). */
export const artifactPath = (artifact: Artifact): string => {
  const path: unknown = artifact.metadata?.path;
  return typeof path === "string" ? path : artifact.name || artifact.artifactId;
};

/**
 * `artifact` as a file view: `previous` is the view of the same artifact the page had, if any;
 * `edits` those of the call that wrote it, looked up only when there is none.
 */
export function fileView(
  artifact: Artifact,
  previous: FileView | undefined,
  edits: readonly Edit[] | undefined,
): FileView {
  const m = artifact.metadata ?? {};
  const mediaType = typeof m.mediaType === "string" ? m.mediaType : "";
  const raw = artifact.parts.find((p) => p.content?.$case === "raw");
  const note = artifact.parts.find((p) => p.content?.$case === "text");
  const content = raw === undefined ? undefined : partText(raw, mediaType);
  const size = typeof m.size === "number" ? m.size : 0;
  const operation = typeof m.operation === "string" ? m.operation : "written";
  const seen = previous?.content ?? previous?.previous;
  const undone =
    seen === undefined && operation === "modified" && edits !== undefined && content !== undefined
      ? beforeEdits(content, edits)
      : undefined;
  return {
    artifactId: artifact.artifactId,
    path: artifactPath(artifact),
    operation,
    tool: typeof m.tool === "string" ? m.tool : "",
    mediaType,
    size,
    truncated: m.truncated === true,
    content,
    previous: seen ?? undone,
    edits: seen === undefined && undone === undefined ? (edits ?? previous?.edits) : undefined,
    note:
      note?.content?.$case === "text"
        ? note.content.value
        : content === undefined
          ? `${mediaType || "binary"}, ${size} bytes`
          : undefined,
  };
}
