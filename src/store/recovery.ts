import { TaskState, type Task } from "@a2a-js/sdk";
import { ServerCallContext, type TaskStore } from "@a2a-js/sdk/server";
import { DatabaseTaskStore } from "@a2a-js/sdk/server/database";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { KIND } from "../a2a/contract/kinds.js";
import { agentMessage, textPart } from "../a2a/contract/messages.js";
import { TEXT } from "../a2a/contract/texts.js";
import { TaskTable } from "./task-table.js";

/**
 * What a task a previous server left unfinished becomes: FAILED, with a status message (also
 * appended to its history, as the SDK does for every status message) saying why. Pure.
 */
export function failedByRestart(task: Task, at: Date): Task {
  const parked =
    task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED ||
    task.status?.state === TaskState.TASK_STATE_AUTH_REQUIRED;
  const message = agentMessage(
    { taskId: task.id, contextId: task.contextId },
    [textPart(parked ? TEXT.restartedWhileParked : TEXT.restartedWhileRunning)],
    { kind: KIND.serverRestarted },
  );
  return {
    ...task,
    status: { state: TaskState.TASK_STATE_FAILED, message, timestamp: at.toISOString() },
    history: [...task.history, message],
  };
}

const OWNER_KEY = "claude-a2a.recovery.owner";

/**
 * Ends FAILED every task a previous process left SUBMITTED, WORKING or INPUT_REQUIRED: no
 * process is left to finish or answer them. Run once at startup, before any request is served.
 * Touches nothing else. Returns the ids of the tasks it failed.
 */
export async function failUnfinishedTasks(
  db: Kysely<unknown>,
  logger: Logger,
  now: () => Date = () => new Date(),
): Promise<string[]> {
  const table = new TaskTable(db);
  // The SDK's own store writes them back, for the caller each belongs to.
  const store: TaskStore = new DatabaseTaskStore(db, {
    ownerResolver: (context) => context.state.get(OWNER_KEY) as string,
  });
  const failed: string[] = [];
  for (const { tenant, owner, task } of await table.unfinished()) {
    const context = new ServerCallContext({ tenant, state: new Map([[OWNER_KEY, owner]]) });
    await store.save(failedByRestart(task, now()), context);
    failed.push(task.id);
  }
  if (failed.length > 0) {
    logger.warn(
      { tasks: failed },
      `failed ${failed.length} task(s) left unfinished by the previous server`,
    );
  }
  return failed;
}
