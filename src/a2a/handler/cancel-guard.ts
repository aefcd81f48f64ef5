import { TaskState, type Task } from "@a2a-js/sdk";
import { isTerminalState } from "../../contract/task-states.js";

/** A task state as a word (`completed`, `input_required`; absent: `unspecified`). */
export const stateName = (state: TaskState | undefined): string =>
  (TaskState[state ?? TaskState.TASK_STATE_UNSPECIFIED] ?? "ended")
    .replace(/^TASK_STATE_/, "")
    .toLowerCase();

/**
 * Why CancelTask must refuse, before the SDK sees it; undefined lets it through. Unknown: the
 * SDK's own TaskNotFound. Ended: TaskNotCancelable, a canceled task included (the SDK would
 * answer a second cancel with the task, as if it had canceled it again). Stored but not running
 * here (a predecessor's, or another instance's): nothing here can stop it. Pure.
 */
export function cancelRefusal(
  task: Pick<Task, "id" | "status"> | undefined,
  activeHere: boolean,
): string | undefined {
  if (task === undefined) return undefined;
  if (isTerminalState(task.status?.state)) {
    return `Task ${task.id} is not cancelable: it has already ended (${stateName(task.status?.state)}).`;
  }
  if (!activeHere) return `Task ${task.id} is not running on this server and cannot be canceled.`;
  return undefined;
}
