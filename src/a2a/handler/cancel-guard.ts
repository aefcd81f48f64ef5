import type { Task } from "@a2a-js/sdk";
import { isRestartParked } from "../../contract/restart-parked.js";
import { isTerminalState, stateWord } from "../../contract/task-states.js";

/**
 * Why CancelTask must refuse, before the SDK sees it; undefined lets it through. Unknown: the
 * SDK's own TaskNotFound. Ended: TaskNotCancelable, a canceled task included (the SDK would
 * answer a second cancel with the task, as if it had canceled it again). Stored but not running
 * here (a predecessor's, or another instance's): nothing here can stop it, unless it waits on a
 * prompt a restart kept (no process runs it anywhere: the SDK stores it canceled). Pure.
 */
export function cancelRefusal(
  task: Pick<Task, "id" | "status"> | undefined,
  activeHere: boolean,
): string | undefined {
  if (task === undefined) return undefined;
  if (isTerminalState(task.status?.state)) {
    return `Task ${task.id} is not cancelable: it has already ended (${stateWord(task.status?.state)}).`;
  }
  if (!activeHere && !isRestartParked(task))
    return `Task ${task.id} is not running on this server and cannot be canceled.`;
  return undefined;
}
