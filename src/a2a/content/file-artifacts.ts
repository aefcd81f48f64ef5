import { constants } from "node:fs";
import { realpath } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { TextDecoder } from "node:util";
import type { Artifact } from "@a2a-js/sdk";
import { mediaTypeOfName, OCTET_STREAM } from "../../common/media-types.js";
import { isRefused, openInside, segmentsInside } from "../../common/safe-files.js";
import { KIND } from "../../contract/kinds.js";
import { artifact, rawPart, textPart } from "../../contract/messages.js";
import { TEXT } from "../../contract/texts.js";

/** Tools whose success means a file was created or modified. */
export const FILE_TOOLS = ["Write", "Edit", "MultiEdit", "NotebookEdit"] as const;
export const FILE_TOOL_MATCHER = FILE_TOOLS.join("|");

/** The path a file tool wrote, from its input (`file_path`, or `notebook_path` for notebooks). */
export function changedFilePath(toolName: string, input: unknown): string | undefined {
  if (!(FILE_TOOLS as readonly string[]).includes(toolName)) return undefined;
  if (typeof input !== "object" || input === null) return undefined;
  const record = input as Record<string, unknown>;
  const path = record.file_path ?? record.notebook_path;
  return typeof path === "string" && path !== "" ? path : undefined;
}

/** Write reports `{type: "create" | "update"}`; the others only ever modify. */
export function fileOperation(toolName: string, response: unknown): "created" | "modified" {
  const type = (response as { type?: unknown } | null)?.type;
  return toolName === "Write" && type === "create" ? "created" : "modified";
}

/**
 * Where a changed file is opened from, and its name in the task: workspace-relative, whether the
 * runtime named it by the workspace's path or its real path (a workspace reached through a
 * symlink: macOS's /tmp, a symlinked checkout); absolute outside the workspace.
 */
async function placeOf(change: FileChange) {
  try {
    const segments = segmentsInside(change.cwd, await realpath(change.cwd), change.path);
    return { root: change.cwd, path: segments.join("/"), shown: segments.join("/") };
  } catch (err) {
    if (!isRefused(err)) throw err;
    const abs = resolve(change.cwd, change.path);
    return { root: dirname(abs), path: basename(abs), shown: abs };
  }
}

/** Same path, same artifact: a second edit replaces the first version in the task. */
export const fileArtifactId = (path: string) => `file:${path}`;

/** Text when it decodes as UTF-8 and holds no NUL byte; otherwise binary. */
export function decodeText(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

export interface FileChange {
  readonly cwd: string;
  readonly path: string;
  readonly toolName: string;
  readonly operation: "created" | "modified";
  readonly maxBytes: number;
}

/**
 * The media type a file is published with: by extension; a file of unknown extension is
 * `text/plain` when it is text, else `application/octet-stream`.
 */
export function fileMediaType(name: string, bytes: Buffer): string {
  return mediaTypeOfName(name) ?? (decodeText(bytes) !== undefined ? "text/plain" : OCTET_STREAM);
}

/**
 * The artifact for a created or modified file: one A2A file part (`raw` bytes, `mediaType`,
 * `filename`), text files included, so that any client treats it as a file; or, above the size
 * cap, a text note marked `truncated`. `metadata.mediaType` says the file's type in both cases.
 *
 * Claude wrote the file, but a sandboxed command may have swapped it (or a folder above it) for
 * a link since: it is opened inside the workspace without following any link, and a file that
 * is not a regular file inside it throws `RefusedFileError` (the caller skips it). A file outside
 * the workspace (a Write the permission rules let through, in `additionalDirectories`) is named
 * by its absolute path, and opened from its own folder the same way.
 */
export async function fileArtifact(change: FileChange): Promise<Artifact> {
  const { root, path, shown } = await placeOf(change);
  const handle = await openInside(root, path, constants.O_RDONLY);
  try {
    const name = shown.split("/").at(-1) ?? shown;
    const metadata = {
      kind: KIND.file,
      path: shown,
      tool: change.toolName,
      operation: change.operation,
    };
    const { size } = await handle.stat();
    if (size > change.maxBytes) {
      const note = TEXT.fileTooLarge(shown, change.operation, size, change.maxBytes);
      const mediaType = mediaTypeOfName(name) ?? OCTET_STREAM;
      return artifact(fileArtifactId(shown), name, [textPart(note)], {
        ...metadata,
        mediaType,
        size,
        truncated: true,
      });
    }
    const bytes = await handle.readFile();
    const mediaType = fileMediaType(name, bytes);
    return artifact(fileArtifactId(shown), name, [rawPart(bytes, mediaType, name)], {
      ...metadata,
      mediaType,
      size: bytes.length,
    });
  } finally {
    await handle.close();
  }
}
