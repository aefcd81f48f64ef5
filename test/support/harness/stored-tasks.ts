/**
 * Many finished tasks written straight into a workspace's SQLite task store, as a server that ran
 * them would have left them: for tests of what a long list costs a client (a thousand tasks
 * through the runtime would take minutes). Call it from `beforeStart`, before the server opens
 * the store; the tasks belong to the anonymous caller (a loopback client without a token).
 */
import { resolve } from "node:path";
import { TaskState, type Task } from "@a2a-js/sdk";
import { ServerCallContext } from "@a2a-js/sdk/server";
import { DatabaseTaskStore } from "@a2a-js/sdk/server/database";
import { DEFAULT_SQLITE_PATH } from "../../../src/config/schema.js";
import { KIND } from "../../../src/contract/kinds.js";
import { agentMessage, textPart } from "../../../src/contract/messages.js";
import { USAGE_KEY } from "../../../src/contract/usage.js";
import { ANONYMOUS, CallerUser } from "../../../src/identity/caller.js";
import { openDatabase } from "../../../src/store/database.js";
import { userMessage } from "./messages.js";

/**
 * `count` completed tasks, `perConversation` to a conversation, each asked "<ask> <n>" and
 * answered; the newest (n = count) first by status time, a second apart.
 */
export function finishedTasks(count: number, perConversation = 4, ask = "Stored task"): Task[] {
  const now = Date.now();
  const tasks: Task[] = [];
  let contextId = "";
  for (let n = 1; n <= count; n++) {
    if ((n - 1) % perConversation === 0) contextId = crypto.randomUUID();
    const ref = { taskId: crypto.randomUUID(), contextId };
    const answer = agentMessage(ref, [textPart(`Done with stored task ${n}.`)], {
      kind: KIND.result,
    });
    tasks.push({
      id: ref.taskId,
      contextId,
      status: {
        state: TaskState.TASK_STATE_COMPLETED,
        message: undefined,
        timestamp: new Date(now - (count - n) * 1000).toISOString(),
      },
      history: [userMessage(`${ask} ${n}`, ref), answer],
      artifacts: [],
      metadata: {
        origin: "foreground",
        [USAGE_KEY]: {
          costUsd: 0.001,
          inputTokens: 10,
          outputTokens: 5,
          cacheReadTokens: 0,
          cacheCreationTokens: 0,
          models: {},
          modelTurns: 1,
          durationMs: 1200,
          runs: 1,
        },
      },
    });
  }
  return tasks;
}

/** Writes `tasks` into the default SQLite store of the workspace `cwd`, in one transaction. */
export async function storeTasks(cwd: string, tasks: readonly Task[]): Promise<void> {
  const { db } = await openDatabase({ type: "sqlite", file: resolve(cwd, DEFAULT_SQLITE_PATH) });
  const context = new ServerCallContext({ user: new CallerUser(ANONYMOUS) });
  try {
    await db.transaction().execute(async (trx) => {
      const store = new DatabaseTaskStore(trx);
      for (const task of tasks) await store.save(task, context);
    });
  } finally {
    await db.destroy();
  }
}
