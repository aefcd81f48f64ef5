import type { Task } from "@a2a-js/sdk";
import { isTerminalState } from "../../contract/task-states.js";
import { isWorking } from "../control/steer-gate.js";

export const stillWorkingMessage = (taskId: string) =>
  `Task ${taskId} is still working; wait for input-required or send a new message without taskId.`;

/**
 * What the guard does with a message that names a task and is not steering:
 * - `sdk`: the SDK's own answer (unknown task: TaskNotFound; ended: UnsupportedOperation; a
 *   `contextId` that is not the task's: InvalidParams);
 * - `working`: refused, one turn at a time (`stillWorkingMessage`);
 * - `claim`: an answer, which reserves the parked task's shown prompt.
 */
export type AnswerDecision = "sdk" | "working" | "claim";

export interface AnswerQuestion {
  /** The named task as the caller's store has it (undefined: not theirs, or none). */
  readonly task: Pick<Task, "status" | "contextId"> | undefined;
  /** Whether it is working or parked here (undefined: not live on this server). */
  readonly live: "working" | "parked" | undefined;
  /** The message's `contextId` (empty or absent: none given). */
  readonly contextId: string | undefined;
}

/** Pure: the live task is the truth, the store may lag behind it by a write. */
export function answerDecision(q: AnswerQuestion): AnswerDecision {
  if (q.task === undefined || isTerminalState(q.task.status?.state)) return "sdk";
  if (isWorking(q.live, q.task)) return "working";
  if (q.contextId && q.contextId !== q.task.contextId) return "sdk";
  return "claim";
}
