import type { Artifact } from "@a2a-js/sdk";
import { KIND } from "./kinds.js";
import { artifact, rawPart, textPart } from "./messages.js";
import { TEXT } from "./texts.js";

/**
 * What a task of a conversation with its own worktree (`claude.isolation: "worktree"`) reports
 * about the commit the server made when it ended (docs/workspaces.md "Isolation"): the final status's
 * `metadata.worktree`, and the diff artifact.
 */

/** The final status's metadata key. */
export const WORKTREE_KEY = "worktree";

/** The diff artifact's media type. */
export const DIFF_MEDIA_TYPE = "text/x-diff";

/** A file the task changed, relative to the repository's top, `/` separators. */
export interface WorktreeFileChange {
  readonly path: string;
  readonly change: "added" | "modified" | "deleted" | "type_changed";
}

/** `metadata.worktree` of the final status of a task that changed files. */
export interface WorktreeMetadata {
  /** The conversation's branch (`claude-a2a/<context>-<hash>`). */
  readonly branch: string;
  /** The branch's commit before the task: the diff's left side. */
  readonly baseCommit: string;
  /** The commit the server made on the branch for the task. */
  readonly commit: string;
  readonly files: readonly WorktreeFileChange[];
}

/** The final status's metadata for a task's commit (`{ worktree: {…} }`). */
export function worktreeMetadata(c: WorktreeMetadata): Record<string, unknown> {
  const shape: WorktreeMetadata = {
    branch: c.branch,
    baseCommit: c.baseCommit,
    commit: c.commit,
    files: c.files.map(({ path, change }) => ({ path, change })),
  };
  return { [WORKTREE_KEY]: shape };
}

/** The diff artifact's id: one per task. */
export const DIFF_ARTIFACT_ID = "diff";

/**
 * The unified diff of a task's commit (`git diff <baseCommit> <commit>`) as one file part
 * (`raw` bytes, `text/x-diff`, `<taskId>.diff`); above `maxBytes`, a text note marked
 * `truncated` instead (the commit still holds it all).
 */
export function diffArtifact(
  taskId: string,
  commit: WorktreeMetadata,
  diff: string,
  maxBytes: number,
): Artifact {
  const name = `${taskId}.diff`;
  const bytes = Buffer.from(diff, "utf8");
  const metadata = {
    kind: KIND.diff,
    mediaType: DIFF_MEDIA_TYPE,
    branch: commit.branch,
    baseCommit: commit.baseCommit,
    commit: commit.commit,
    size: bytes.length,
  };
  if (bytes.length > maxBytes) {
    const note = TEXT.diffTooLarge(commit.baseCommit, commit.commit, bytes.length, maxBytes);
    return artifact(DIFF_ARTIFACT_ID, name, [textPart(note)], { ...metadata, truncated: true });
  }
  return artifact(DIFF_ARTIFACT_ID, name, [rawPart(bytes, DIFF_MEDIA_TYPE, name)], metadata);
}
