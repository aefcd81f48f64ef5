/** Stream events as an owner publishes them, for the unit tests of what keeps and relays them. */
import type { StreamResponse, TaskState } from "@a2a-js/sdk";

/** Task `taskId`'s status update (context `c`), numbered `n` as the replay log numbers events. */
export const numberedStatus = (taskId: string, state: TaskState, n: number): StreamResponse => ({
  payload: {
    $case: "statusUpdate",
    value: {
      taskId,
      contextId: "c",
      status: { state, message: undefined, timestamp: new Date(0).toISOString() },
      metadata: { eventNumber: n },
    },
  },
});
