import { KIND } from "./kinds.js";

/**
 * Delegation to peers (docs/peers.md): what a task that called another A2A agent shows its
 * caller, and what travels with the call. Pure, no imports of ours but the contract: both
 * clients read it.
 */

/**
 * Message metadata key of the delegation depth: 1 on a message a server sends to a peer for a
 * task its own client created, one more at each hop. A server refuses to send deeper than its
 * `peers.maxDepth`.
 */
export const DELEGATION_DEPTH_KEY = "delegationDepth";

/** Task metadata key: the peers' tasks this task delegated to, in call order. */
export const DELEGATED_TASKS_KEY = "delegatedTasks";

/** One entry of `metadata.delegatedTasks`. */
export interface DelegatedTaskRef {
  /** The peer's configured name. */
  readonly agent: string;
  readonly taskId: string;
  readonly contextId: string;
}

/** The data part of a `delegated_input` status: a peer's own prompt, passed up. */
export interface DelegatedInputData {
  readonly kind: typeof KIND.delegatedInput;
  /** The peer's configured name. */
  readonly agent: string;
  /** The peer's task that waits for the answer. */
  readonly taskId: string;
  /** The peer's prompt text (its status message's text parts). */
  readonly text: string;
  /** The data parts of the peer's prompt, as it sent them (e.g. its `ask_user_question`). */
  readonly data: readonly unknown[];
}

export const delegatedInputData = (p: Omit<DelegatedInputData, "kind">): DelegatedInputData => ({
  kind: KIND.delegatedInput,
  agent: p.agent,
  taskId: p.taskId,
  text: p.text,
  data: p.data,
});

/** Depth of the call a message came with (0: none, or not a whole number). Pure. */
export function delegationDepthOf(metadata: Readonly<Record<string, unknown>> | undefined): number {
  const depth = metadata?.[DELEGATION_DEPTH_KEY];
  return typeof depth === "number" && Number.isInteger(depth) && depth > 0 ? depth : 0;
}

/**
 * The peers a task delegated to, by name, once each in call order, from its (or a status
 * event's) `metadata.delegatedTasks`; empty when absent or malformed. Pure.
 */
export function delegatedAgentsOf(
  metadata: Readonly<Record<string, unknown>> | undefined,
): string[] {
  const refs = metadata?.[DELEGATED_TASKS_KEY];
  if (!Array.isArray(refs)) return [];
  const agents = refs.flatMap((r: unknown) =>
    typeof r === "object" && r !== null && typeof (r as { agent?: unknown }).agent === "string"
      ? [(r as { agent: string }).agent]
      : [],
  );
  return [...new Set(agents)];
}

/** The texts of delegation (docs/peers.md quotes them). */
export const DELEGATION_TEXT = {
  /** A `delegated` status: the peer's task changed state (`what`: its status text, if any). */
  progress: (agent: string, state: string, what: string) =>
    what === "" ? `Peer ${agent}: ${state}` : `Peer ${agent}: ${state}: ${what}`,
  /** The text of a `delegated_input` status: the peer's own prompt, said to be its. */
  input: (agent: string, text: string) => `Peer ${agent} asks: ${text}`,
  /** The tool error of a call whose peer prompt our caller left unanswered. */
  inputTimeout: (ms: number) =>
    `The caller did not answer the peer's question within ${ms} ms (claude.inputTimeoutMs); the peer's task was canceled.`,
} as const;
