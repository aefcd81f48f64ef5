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

/** Removes a task's inbox folder (a task that ended before Claude saw its attachments). */
export async function removeInbox(cwd: string, taskId: string): Promise<void> {
  await removeInside(cwd, `${INBOX_DIR}/${safeSegment(taskId)}`);
}
