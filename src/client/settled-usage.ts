import type { Task } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { usageOf, type TaskUsage } from "../contract/usage.js";
import { newView, type TurnView } from "./render.js";

/** How long a canceled task's cost is waited for, and how often GetTask is asked meanwhile. */
const SETTLE_MS = 3_000;
const EVERY_MS = 100;

/**
 * What a task canceled at a prompt cost. Its run was parked mid-turn: the cancel's answer comes
 * before that run's result, which the server adds to the stored task afterwards, so the cancel's
 * own figures miss it ("$0"). GetTask is asked until the task counts one run more than the
 * cancel's answer did, for a few seconds at most; then whatever it has. `task <id>` shows the
 * same figures later.
 */
export async function settledUsage(
  client: Client,
  canceled: Task,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<TaskUsage | undefined> {
  const before = usageOf(canceled.metadata);
  let usage = before;
  for (let waited = 0; ; waited += EVERY_MS) {
    try {
      const task = await client.getTask({ tenant: "", id: canceled.id, historyLength: 0 });
      usage = usageOf(task.metadata) ?? usage;
    } catch {
      return usage; // an agent that will not say: the cancel's figures
    }
    if (isSettled(before, usage) || waited >= SETTLE_MS) return usage;
    await sleep(EVERY_MS);
  }
}

/** Whether `now` includes the run that was parked when the task was canceled. Pure. */
export const isSettled = (atCancel: TaskUsage | undefined, now: TaskUsage | undefined): boolean =>
  now !== undefined && now.runs > (atCancel?.runs ?? 0);

/** Cancels a task parked at a prompt; the view of its end, with its settled cost. */
export async function cancelAtPrompt(client: Client, taskId: string): Promise<TurnView> {
  const canceled = await client.cancelTask({ tenant: "", id: taskId, metadata: undefined });
  const view = { ...newView(), taskId, state: canceled.status?.state };
  const usage = await settledUsage(client, canceled);
  return usage ? { ...view, usage } : view;
}
