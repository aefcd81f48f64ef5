import { createHash } from "node:crypto";
import { removeInside, writeFileInside } from "../common/safe-files.js";

/**
 * The inbox: where the file parts of a task's messages are written in the workspace, so Claude
 * can read them. The A2A side plans the files; the stores' retention removes them.
 */
export const INBOX_DIR = ".claude/a2a-inbox";

export interface InboxFile {
  /** Workspace-relative path the file is written to. */
  readonly path: string;
  readonly bytes: Buffer;
  readonly mediaType: string;
}

/** One path segment from any string: never a separator, never a leading dot. */
export function safeSegment(s: string): string {
  return s
    .replace(/[^A-Za-z0-9._-]/g, "_")
    .replace(/^\.+/, "_")
    .slice(0, 120);
}

/**
 * Writes a task's attachments. A sandboxed command can plant a link at any folder of the way
 * (`.claude`, the inbox, the task's folder) or at a file's name: no link is followed, and a link
 * on the way throws `RefusedFileError` before anything is written (`common/safe-files.ts`).
 */
export async function writeInbox(cwd: string, files: readonly InboxFile[]): Promise<void> {
  for (const file of files) await writeFileInside(cwd, file.path, file.bytes);
}

/**
 * The inbox's folder of one caller (by its scope, the `owner` of its tasks): under a sandbox a
 * conversation's commands and file tools reach its own caller's folder only, so no caller reads
 * another's attachments in a workspace they share (`claude.isolation: "shared"`). A hash: a
 * caller's name is not shown to another. Pure.
 */
export const callerInbox = (owner: string): string =>
  `${INBOX_DIR}/${createHash("sha256").update(owner).digest("hex").slice(0, 16)}`;

/** A task's inbox folder, relative to the folder its conversation works in. Pure. */
export const taskInbox = (owner: string, taskId: string): string =>
  `${callerInbox(owner)}/${safeSegment(taskId)}`;

/** Removes a task's inbox folder (a task that ended before Claude saw its attachments). */
export async function removeInboxFolder(cwd: string, folder: string): Promise<void> {
  await removeInside(cwd, folder);
}

/** Removes a task's inbox folder (`taskInbox`), and where an earlier version put it. */
export async function removeInbox(cwd: string, owner: string, taskId: string): Promise<void> {
  await removeInside(cwd, taskInbox(owner, taskId));
  await removeInside(cwd, `${INBOX_DIR}/${safeSegment(taskId)}`);
}
