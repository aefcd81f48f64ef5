import type { AgentExtension } from "@a2a-js/sdk";
import { HTTP_STATUS, JSONRPC_CODE } from "./wire-codes.js";

/**
 * A2A v1.1's task generations (a2aproject/A2A#1986, on its `dev-1.1` branch), served first as a
 * declared extension under the v1.1 names until `@a2a-js/sdk` has the fields. A task's
 * generation is its event number (docs/protocol.md "Event numbers"): 1 at its first event, one
 * more per event. The URI is an identifier; its last segment is this mapping's version.
 */
export const GENERATIONS_EXTENSION_URI =
  "https://github.com/claude-a2a/claude-a2a/extensions/generations/v1";

/** v1.1's `Task.generation` and the update events' `generation`, here in their `metadata`. */
export const GENERATION_KEY = "generation";
/** v1.1's `SendMessageConfiguration.if_generation_match`, here in the request's `metadata`. */
export const IF_GENERATION_MATCH_KEY = "ifGenerationMatch";
/**
 * v1.1's `GetTaskRequest.current_generation`, here a service parameter: the HTTP header
 * `A2A-Current-Generation`, the gRPC metadata `a2a-current-generation` (GetTask has no metadata).
 */
export const CURRENT_GENERATION_HEADER = "a2a-current-generation";
/** The longest a GetTask with `currentGeneration` waits for the task to move. */
export const GENERATION_WAIT_MS = 30_000;

/** v1.1's `TaskGenerationMismatchError`, on each binding. */
export const GENERATION_MISMATCH = {
  jsonRpcCode: JSONRPC_CODE.TASK_GENERATION_MISMATCH,
  httpStatus: HTTP_STATUS.CONFLICT,
  restStatus: "ABORTED",
  reason: "TASK_GENERATION_MISMATCH",
} as const;

export const GENERATION_TEXT = {
  mismatch: (taskId: string, expected: number, current: number) =>
    `Task ${taskId} is at generation ${current}, not ${expected} (ifGenerationMatch): it has ` +
    `moved since; read it again, then send.`,
  notAGeneration: (name: string, value: string) =>
    `${name} must be a whole number of 0 or more (got ${value.slice(0, 40)}).`,
} as const;

const MISMATCH = /^Task .* is at generation \d+, not \d+ \(ifGenerationMatch\)/s;

/** Whether an error text is the generation mismatch (each binding answers it its own way). */
export const isGenerationMismatch = (message: unknown): boolean =>
  typeof message === "string" && MISMATCH.test(message);

/** Whether a request asks for the extension (its `A2A-Extensions`). */
export const generationsRequested = (requested: readonly string[] | undefined): boolean =>
  requested?.includes(GENERATIONS_EXTENSION_URI) === true;

/** The card's entry. Not required: without it, nothing of a task or a request changes. */
export function generationsExtension(): AgentExtension {
  return {
    uri: GENERATIONS_EXTENSION_URI,
    description:
      "A2A v1.1 task generations before the SDK has the fields: with this extension activated, " +
      "a task and each of its events carry metadata.generation (its event number); GetTask " +
      "with the A2A-Current-Generation header waits (at most 30 s) until the task has moved " +
      "past it; a message whose request metadata.ifGenerationMatch is not its task's " +
      `generation is refused (TaskGenerationMismatchError: ${JSONRPC_CODE.TASK_GENERATION_MISMATCH}, HTTP ${HTTP_STATUS.CONFLICT}, gRPC ABORTED).`,
    required: false,
    params: undefined,
  };
}
