/**
 * The texts of rewind and fork (docs/control.md): the statuses that say where a conversation
 * went back to or came from, and why a rewind or fork is refused. Beside `texts.ts`, which holds
 * the rest, so the control extension's words are read in one place.
 */

/**
 * Why a rewind or fork is refused: the request's InvalidParams error, before any task exists
 * (docs/control.md "Refusals"); the few that only the task's start can see fail that task.
 */
export const CONTROL_REFUSAL = {
  needsExtension: (key: string) =>
    `metadata.${key} needs the control extension: send the A2A-Extensions header naming it.`,
  off: (control: string) => `The ${control} control is off on this server (server.control).`,
  notATaskId: (key: string, got: unknown) =>
    `metadata.${key} must be a task id (got ${JSON.stringify(got)}).`,
  both: "A message cannot carry both metadata.rewindTo and metadata.forkOf.",
  dryRunAlone: "metadata.dryRun applies only with metadata.rewindTo.",
  dryRunNotBoolean: (got: unknown) =>
    `metadata.dryRun must be true or false (got ${JSON.stringify(got)}).`,
  withTaskId: (key: string) =>
    `metadata.${key} starts a new task: send the message without a taskId.`,
  unknownTask: (taskId: string) => `Task ${taskId} is not one of your tasks.`,
  otherContext: (taskId: string) =>
    `Task ${taskId} is not in this context: a rewind goes back within its own conversation ` +
    `(to start another from it, send metadata.forkOf in a new context).`,
  sameContext: (taskId: string) =>
    `A fork starts a new conversation: send metadata.forkOf: "${taskId}" with a new contextId.`,
  contextInUse: "A fork starts a new context: this context has tasks already.",
  busy: (taskId: string) =>
    `Cannot rewind to task ${taskId} while another task of this conversation is running; ` +
    `wait for it to end, or cancel it.`,
  notEnded: (taskId: string) => `Task ${taskId} has not ended yet.`,
  notRecorded: (taskId: string) =>
    `Task ${taskId} has no record of where it began in the conversation (it never reached ` +
    `Claude, or it ran before this server recorded it).`,
  notInConversation: (taskId: string) =>
    `Task ${taskId} is no longer part of this conversation (an earlier rewind went back before it).`,
  noTranscript: (taskId: string) =>
    `Task ${taskId}'s Claude session has no transcript on this server any more (Claude Code ` +
    `removes old ones, or it ran under another configuration directory).`,
  noCommit: (taskId: string) => `Task ${taskId} has no recorded commit of the worktree.`,
  checkpointsFailed: (why: string) => `Claude Code could not rewind the files: ${why}`,
} as const;

export const CONTROL_TEXT = {
  rewound: (taskId: string, files: string) =>
    `Rewound the conversation to just before task ${taskId}: Claude no longer knows that task ` +
    `or the ones after it. ${files}`,
  rewoundWorktree: (commit: string, kept: string) =>
    `The worktree is back at ${commit.slice(0, 12)}; the later commits are kept on ${kept}.`,
  rewoundCheckpoints: (files: readonly string[]) =>
    files.length === 0
      ? "Claude Code's file checkpoints had no file to restore."
      : `Restored from Claude Code's file checkpoints: ${files.join(", ")} (changes made by ` +
        `Bash are not tracked by checkpoints and stay as they are).`,
  rewindFirst: "Nothing came before it: the conversation starts afresh.",
  dryRun: (taskId: string) =>
    `Dry run: the diff of the rewind to just before task ${taskId}; nothing was changed.`,
  dryRunCheckpoints: (taskId: string, files: readonly string[], ins: number, del: number) =>
    `Dry run of the rewind to just before task ${taskId}: Claude Code's file checkpoints would ` +
    `restore ${files.length === 0 ? "no file" : files.join(", ")} (+${ins} -${del} lines). ` +
    `Changes made by Bash are not tracked by checkpoints. Nothing was changed.`,
  forked: (taskId: string) =>
    `Forked from task ${taskId}: this conversation goes on from the end of that task; the ` +
    `original goes on as it was.`,

  ...CONTROL_REFUSAL,
} as const;
