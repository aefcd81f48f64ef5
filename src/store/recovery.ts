import { TaskState, type Task } from "@a2a-js/sdk";
import { ServerCallContext, type TaskStore } from "@a2a-js/sdk/server";
import { DatabaseTaskStore } from "@a2a-js/sdk/server/database";
import { sql, type Kysely } from "kysely";
import type { Logger } from "pino";
import { KIND } from "../contract/kinds.js";
import { agentMessage, textPart } from "../contract/messages.js";
import {
  isRestartParked,
  RESTART_PARKED_TEXT,
  RESTARTED_KEY,
  storedPrompt,
} from "../contract/restart-parked.js";
import { TEXT } from "../contract/texts.js";
import { usageMetadata, type TaskUsage } from "../contract/usage.js";
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
export function failedByRestart(
  task: Task,
  at: Date,
  texts: RecoveryTexts = RESTART_TEXTS,
  usage?: TaskUsage,
): Task {
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
    ...(usage && { metadata: { ...task.metadata, ...usageMetadata(usage) } }),
  };
}

/**
 * What restart recovery does with a task a previous server left unfinished (docs/storage.md
 * "Restart recovery"). Pure:
 * - `keep`: it waits on a question or permission request: it stays input-required, its status
 *   saying what an answer now does (`keptParked`), so the answer resumes the conversation;
 * - `kept`: kept so by an earlier start already: nothing to do;
 * - `fail`: it was running or queued, or waits on another prompt (a plan, a peer's prompt,
 *   auth-required), which no new process can take up: FAILED (`failedByRestart`).
 */
export type Recovery = "keep" | "kept" | "fail";

export function recoveryOf(task: Pick<Task, "status">): Recovery {
  if (task.status?.state !== TaskState.TASK_STATE_INPUT_REQUIRED) return "fail";
  if (isRestartParked(task)) return "kept";
  return storedPrompt(task.status.message) === undefined ? "fail" : "keep";
}

/**
 * A parked task kept across a restart: still INPUT_REQUIRED, its status message the same prompt
 * (its data part, its kind) with the restart's text in place of the prompt's and
 * `metadata.restarted`. Its history keeps the prompt as first shown; `usage`: what its runs used
 * until then, as a failed task carries it. Pure.
 */
export function keptParked(task: Task, at: Date, usage?: TaskUsage): Task {
  const shown = task.status?.message;
  const prompt = storedPrompt(shown);
  if (shown === undefined || prompt === undefined) return task;
  const text =
    prompt.kind === "question"
      ? RESTART_PARKED_TEXT.question
      : RESTART_PARKED_TEXT.permission(prompt.toolName);
  const data = shown.parts.filter((p) => p.content?.$case === "data");
  const message = agentMessage({ taskId: task.id, contextId: task.contextId }, [
    textPart(text),
    ...data,
  ]);
  message.metadata = { ...shown.metadata, [RESTARTED_KEY]: true };
  return {
    ...task,
    status: { state: TaskState.TASK_STATE_INPUT_REQUIRED, message, timestamp: at.toISOString() },
    ...(usage && { metadata: { ...task.metadata, ...usageMetadata(usage) } }),
  };
}

/**
 * What the runs of a task the previous process left unfinished used, from what outlived it (its
 * session's transcript, `src/app/recovered-usage.ts`); `startedAt`: its first kept event (ms).
 */
export type RecoveredUsage = (
  scoped: ScopedTask,
  startedAt: number,
) => Promise<TaskUsage | undefined>;

/** When the task's first event was kept for replay (epoch ms); undefined when none is. */
export async function taskStartedAt(
  db: Kysely<unknown>,
  taskId: string,
): Promise<number | undefined> {
  const { rows } = await sql<{ at: unknown }>`
    SELECT min(at) AS at FROM claude_a2a_replay_events WHERE task_id = ${taskId}`.execute(db);
  const value = rows[0]?.at;
  return value === null || value === undefined ? undefined : Number(value);
}

/** The task's usage as `usageOf` recovers it; undefined (logged) when it cannot be. */
export async function recoverUsage(
  db: Kysely<unknown>,
  scoped: ScopedTask,
  usageOf: RecoveredUsage | undefined,
  logger: Logger,
): Promise<TaskUsage | undefined> {
  if (usageOf === undefined) return undefined;
  try {
    const startedAt = await taskStartedAt(db, scoped.task.id);
    return startedAt === undefined ? undefined : await usageOf(scoped, startedAt);
  } catch (err) {
    logger.warn({ err, taskId: scoped.task.id }, "could not recover a failed task's usage");
    return undefined;
  }
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
 * Ends FAILED every task a previous process left SUBMITTED, WORKING or INPUT_REQUIRED (no process
 * is left to finish or answer them), except a question or permission request, which stays
 * input-required for an answer that resumes the conversation (`recoveryOf`). Run once at startup,
 * before any request is served. Touches nothing else. Returns the ids of the tasks it failed.
 */
export async function failUnfinishedTasks(
  db: Kysely<unknown>,
  logger: Logger,
  now: () => Date = () => new Date(),
  usageOf?: RecoveredUsage,
): Promise<string[]> {
  const table = new TaskTable(db);
  const failed: string[] = [];
  const kept: string[] = [];
  for (const scoped of await table.unfinished()) {
    const recovery = recoveryOf(scoped.task);
    if (recovery === "kept") continue;
    const usage = await recoverUsage(db, scoped, usageOf, logger);
    if (recovery === "keep") {
      await writeBack(db, scoped, keptParked(scoped.task, now(), usage));
      kept.push(scoped.task.id);
      continue;
    }
    await writeBack(db, scoped, failedByRestart(scoped.task, now(), RESTART_TEXTS, usage));
    failed.push(scoped.task.id);
  }
  if (failed.length > 0) {
    logger.warn(
      { tasks: failed },
      `failed ${failed.length} task(s) left unfinished by the previous server`,
    );
  }
  if (kept.length > 0) {
    logger.warn(
      { tasks: kept },
      `kept ${kept.length} task(s) waiting for an answer across the restart`,
    );
  }
  return failed;
}
