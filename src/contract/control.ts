import type { AgentExtension } from "@a2a-js/sdk";

/**
 * The control extension (A2A v1.0 §4.6): a client that activates it, with its `A2A-Extensions`
 * request header, may steer a task that is still working (docs/control.md). Without it a message
 * for a working task is refused as it always was. The URI is an identifier, not a document.
 */
export const CONTROL_EXTENSION_URI =
  "https://github.com/claude-a2a/claude-a2a/extensions/control/v1";

/** The contract's version, as the URI ends and docs/control.md says. */
export const CONTROL_EXTENSION_VERSION = "1";

/** The controls, as `server.control` names them and the card's params list the ones on. */
export const CONTROLS = ["steer", "plan", "rewind", "fork"] as const;
export type Control = (typeof CONTROLS)[number];

/** The message metadata keys of the extension. */
export const CONTROL_KEYS = {
  /** On a message for a working task: `"next"` (default) or `"now"`. */
  steer: "steer",
  /** On a message that creates a task: its permission mode, e.g. `"plan"` (`plan.ts`). */
  permissionMode: "permissionMode",
  /** On a new task's message: the id of a task of this context to go back to before. */
  rewindTo: "rewindTo",
  /** With `rewindTo`: answer the diff the rewind would apply, and change nothing. */
  dryRun: "dryRun",
  /** On a message in a new context: the id of a task whose conversation to continue from. */
  forkOf: "forkOf",
} as const;

/** A task's metadata key holding where it began and ended in its conversation (docs/control.md). */
export const CONTROL_RECORD_KEY = "control";

/** `metadata.control` of a task's final status: what a later rewind or fork of it needs. */
export interface ControlRecord {
  /** The Claude session the task ran in. */
  readonly sessionId?: string;
  /** The runtime's uuid of the task's prompt (the user message it began at). */
  readonly promptUuid?: string;
  /** Under worktree isolation: the branch's commit when the task began, and when it ended. */
  readonly startCommit?: string;
  readonly endCommit?: string;
  /** A rewinding task: the task it went back to before. */
  readonly rewoundTo?: string;
  /** The first task of a forked context: the task it continues from. */
  readonly forkOf?: string;
}

const DESCRIPTION =
  "Control of a running task. Steer: a message with the taskId of a WORKING task is delivered " +
  "to the running turn (metadata.steer 'next', the default: at the next tool boundary; 'now': " +
  "the step under way is interrupted); the stream shows a 'steered' status when Claude took it. " +
  "Activate with the A2A-Extensions request header; without it such a message is refused. " +
  "Plan: a message creating a task with metadata.permissionMode 'plan' (one of " +
  "params.permissionModes) has Claude plan first; its plan is an input-required of kind " +
  "'plan_approval' (the plan as Markdown text and as a data part); a clear yes carries it out, " +
  "anything else is feedback Claude revises the plan with. " +
  "Rewind: metadata.rewindTo names a task of the context; the conversation (and its files) go " +
  "back to just before it, the message is the new prompt (metadata.dryRun: the diff only). " +
  "Fork: metadata.forkOf on a message in a new context continues from the end of that task.";

/** Whether the client's request activates the control extension. Pure. */
export function controlRequested(requested: readonly string[] | undefined): boolean {
  return (requested ?? []).includes(CONTROL_EXTENSION_URI);
}

/**
 * The card's entry, listing the controls that are on and the permission modes a message may
 * ask for (when any); undefined when no control is on.
 */
export function controlExtension(
  on: readonly Control[],
  permissionModes: readonly string[] = [],
): AgentExtension | undefined {
  if (on.length === 0) return undefined;
  return {
    uri: CONTROL_EXTENSION_URI,
    description: DESCRIPTION,
    required: false,
    params: {
      version: CONTROL_EXTENSION_VERSION,
      controls: [...on],
      ...(permissionModes.length > 0 && { permissionModes: [...permissionModes] }),
    },
  };
}
