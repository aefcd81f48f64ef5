import { TaskState, type Task } from "@a2a-js/sdk";
import { ServerCallContext, type TaskStore } from "@a2a-js/sdk/server";
import { DatabaseTaskStore } from "@a2a-js/sdk/server/database";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { KIND } from "../contract/kinds.js";
import { agentMessage, textPart } from "../contract/messages.js";
import { TEXT } from "../contract/texts.js";
import { TaskTable, type ScopedTask } from "./task-table.js";

/** Why an unfinished task was failed, as its status text words it: running, or parked. */
export interface RecoveryTexts {
  readonly running: string;
  readonly parked: string;
}

/** A server restarted (its own tasks, or those of a single server). */
export const RESTART_TEXTS: RecoveryTexts = {
  running: TEXT.restartedWhileRunning,
  parked: TEXT.restartedWhileParked,
};

/**
 * What a task a previous server left unfinished becomes: FAILED, with a status message (also
 * appended to its history, as the SDK does for every status message) saying why. Pure.
 */
export function failedByRestart(task: Task, at: Date, texts: RecoveryTexts = RESTART_TEXTS): Task {
  const parked =
    task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED ||
    task.status?.state === TaskState.TASK_STATE_AUTH_REQUIRED;
  const message = agentMessage(
    { taskId: task.id, contextId: task.contextId },
    [textPart(parked ? texts.parked : texts.running)],
    { kind: KIND.serverRestarted },
  );
  return {
    ...task,
    status: { state: TaskState.TASK_STATE_FAILED, message, timestamp: at.toISOString() },
    history: [...task.history, message],
  };
}

const OWNER_KEY = "claude-a2a.recovery.owner";

/** Saves `task` in place of `scoped` with the SDK's own store, in the caller scope it belongs to. */
export async function writeBack(
  db: Kysely<unknown>,
  scoped: ScopedTask,
  task: Task,
): Promise<void> {
  const store: TaskStore = new DatabaseTaskStore(db, {
    ownerResolver: (context) => context.state.get(OWNER_KEY) as string,
  });
  const { tenant, owner } = scoped;
  await store.save(task, new ServerCallContext({ tenant, state: new Map([[OWNER_KEY, owner]]) }));
}

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
  const failed: string[] = [];
  for (const scoped of await table.unfinished()) {
    await writeBack(db, scoped, failedByRestart(scoped.task, now()));
    failed.push(scoped.task.id);
  }
  if (failed.length > 0) {
    logger.warn(
      { tasks: failed },
      `failed ${failed.length} task(s) left unfinished by the previous server`,
    );
  }
  return failed;
}
