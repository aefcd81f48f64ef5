/**
 * What a client reads when several servers share one PostgreSQL store (docs/storage.md "Several
 * servers"): the status of a task whose owner instance died, and the errors of a request another
 * instance could not carry to the task's owner. docs/storage.md quotes each; a test holds them to it.
 */
export const FLEET_TEXT = {
  ownerLostWhileRunning: (instance: string) =>
    `Server instance ${instance}, which ran this task, stopped renewing its lease (it stopped ` +
    `and did not come back), so the task was stopped. Send a new message in the same context to ` +
    `continue.`,
  ownerLostWhileParked: (instance: string) =>
    `Server instance ${instance}, which ran this task, stopped renewing its lease while the task ` +
    `was waiting for an answer (it stopped and did not come back); that question can no longer ` +
    `be answered. Send a new message in the same context to continue.`,
  ownerGone: (taskId: string, instance: string) =>
    `Task ${taskId} runs on server instance ${instance}, which is gone (its lease expired); ` +
    `the task is failed as soon as another instance notices.`,
  ownerNotAnswering: (taskId: string, instance: string, ms: number) =>
    `Task ${taskId} runs on server instance ${instance}, which did not take up this request ` +
    `within ${ms} ms (fleet.commandTimeoutMs).`,
} as const;
