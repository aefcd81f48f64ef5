import type { AgentExtension } from "@a2a-js/sdk";
import { KIND } from "./kinds.js";

/**
 * Our event contract as a declared A2A extension (A2A v1.0 §4.6): the `metadata.kind` of status
 * messages and artifacts, the input-required data parts, and the answers a client sends back.
 * The URI is an identifier, not a document to fetch; its last segment is the contract's version,
 * which changes only when a shape changes incompatibly (a new kind is not one).
 */
export const EVENTS_EXTENSION_URI = "https://github.com/claude-a2a/claude-a2a/extensions/events/v1";

/** The contract's version, as the URI ends and docs/protocol.md says. */
export const EVENTS_EXTENSION_VERSION = "1";

const DESCRIPTION =
  "Claude Code events: every status message and artifact carries metadata.kind " +
  "(tool_use, result, ask_user_question, permission_request, resumed, ...); an input-required " +
  "status carries an application/json data part ({kind: 'ask_user_question', questions} or " +
  "{kind: 'permission_request', toolName, input, title, decisionReason}); a client answers " +
  "with free text or a data part ({answers: {<question>: <label>}} or " +
  "{kind: 'permission_response', decision: 'allow'|'deny', reason?}). Optional: a client that " +
  "does not activate it gets the same events.";

/** What a client may send back to a parked task, by the `kind` of the prompt it answers. */
export const ANSWER_SHAPES = {
  [KIND.askUserQuestion]: "answers",
  [KIND.permissionRequest]: "permission_response",
} as const;

/** The parameters: what the contract's names are, for a client that checks before relying on them. */
export function eventsExtensionParams(): Record<string, unknown> {
  return {
    version: EVENTS_EXTENSION_VERSION,
    kinds: Object.values(KIND),
    prompts: Object.keys(ANSWER_SHAPES),
    answers: Object.values(ANSWER_SHAPES),
  };
}

/**
 * The card's entry. Not required: the events are the same whether a client activates it or not
 * (activation only has the server confirm, in the `A2A-Extensions` response header, that they
 * are what it gets). `withParams` adds `eventsExtensionParams()`.
 */
export function eventsExtension(withParams = false): AgentExtension {
  return {
    uri: EVENTS_EXTENSION_URI,
    description: DESCRIPTION,
    required: false,
    params: withParams ? eventsExtensionParams() : undefined,
  };
}
