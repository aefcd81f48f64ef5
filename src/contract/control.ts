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
export const CONTROLS = ["steer"] as const;
export type Control = (typeof CONTROLS)[number];

/** The message metadata keys of the extension. */
export const CONTROL_KEYS = {
  /** On a message for a working task: `"next"` (default) or `"now"`. */
  steer: "steer",
} as const;

const DESCRIPTION =
  "Control of a running task. Steer: a message with the taskId of a WORKING task is delivered " +
  "to the running turn (metadata.steer 'next', the default: at the next tool boundary; 'now': " +
  "the step under way is interrupted); the stream shows a 'steered' status when Claude took it. " +
  "Activate with the A2A-Extensions request header; without it such a message is refused.";

/** Whether the client's request activates the control extension. Pure. */
export function controlRequested(requested: readonly string[] | undefined): boolean {
  return (requested ?? []).includes(CONTROL_EXTENSION_URI);
}

/** The card's entry, listing the controls that are on; undefined when none is. */
export function controlExtension(on: readonly Control[]): AgentExtension | undefined {
  if (on.length === 0) return undefined;
  return {
    uri: CONTROL_EXTENSION_URI,
    description: DESCRIPTION,
    required: false,
    params: { version: CONTROL_EXTENSION_VERSION, controls: [...on] },
  };
}
