import { TaskState, type StreamResponse, type Task } from "@a2a-js/sdk";
import type { A2ARequestHandler, ServerCallContext } from "@a2a-js/sdk/server";
import { describe, expect, it } from "vitest";
import { waitForEnd } from "../../../src/triggers/task-end.js";

/** How a trigger's result comment waits for its task's end, over a scripted request handler. */

const { WORKING, INPUT_REQUIRED, COMPLETED, CANCELED } = {
  WORKING: TaskState.TASK_STATE_WORKING,
  INPUT_REQUIRED: TaskState.TASK_STATE_INPUT_REQUIRED,
  COMPLETED: TaskState.TASK_STATE_COMPLETED,
  CANCELED: TaskState.TASK_STATE_CANCELED,
};

const task = (state: TaskState): Task =>
  ({
    id: "t",
    contextId: "c",
    status: { state },
    artifacts: [],
    history: [],
    metadata: {},
  }) as unknown as Task;
const status = (state: TaskState): StreamResponse =>
  ({
    payload: { $case: "statusUpdate", value: { taskId: "t", contextId: "c", status: { state } } },
  }) as unknown as StreamResponse;
const snapshot = (state: TaskState): StreamResponse =>
  ({ payload: { $case: "task", value: task(state) } }) as unknown as StreamResponse;

/**
 * A handler whose GetTask answers `states` in turn (the last one from then on) and whose
 * subscriptions yield `streams`.
 */
function scripted(states: TaskState[], streams: (StreamResponse[] | "terminal")[]) {
  const calls: string[] = [];
  const handler = {
    getTask: () => {
      calls.push("get");
      const state = states.length > 1 ? states.shift() : states[0];
      return Promise.resolve(task(state ?? COMPLETED));
    },
    resubscribe: async function* () {
      calls.push("subscribe");
      const next = streams.shift() ?? [];
      // As the SDK answers a subscription to a task that has ended.
      if (next === "terminal") throw new Error("Task t is in a terminal state");
      for (const e of next) yield await Promise.resolve(e);
    },
  } as unknown as A2ARequestHandler;
  return { handler, calls };
}

const ctx = {} as ServerCallContext;

describe("waitForEnd", () => {
  it("follows a task through a wait for an operator to its end", async () => {
    const { handler, calls } = scripted(
      [WORKING, INPUT_REQUIRED, COMPLETED],
      [
        // The stream ends on input-required; the bus stays, a new subscription follows it.
        [snapshot(WORKING), status(INPUT_REQUIRED)],
        [snapshot(INPUT_REQUIRED), status(WORKING), status(COMPLETED)],
      ],
    );
    const ended = await waitForEnd(handler, ctx, "t", { firstPauseMs: 1 });
    expect(ended?.status?.state).toBe(COMPLETED);
    expect(calls).toEqual(["get", "subscribe", "get", "subscribe", "get"]);
  });

  it("returns a task that ended before it was subscribed to", async () => {
    const { handler, calls } = scripted([WORKING, CANCELED], ["terminal"]);
    const ended = await waitForEnd(handler, ctx, "t", { firstPauseMs: 1 });
    expect(ended?.status?.state).toBe(CANCELED);
    expect(calls).toEqual(["get", "subscribe", "get"]);
  });

  it("pauses between subscriptions that yield nothing, and stops when told", async () => {
    const { handler, calls } = scripted(
      [WORKING],
      [[snapshot(WORKING)], [snapshot(WORKING)], [snapshot(WORKING)]],
    );
    const stop = new AbortController();
    const waiting = waitForEnd(handler, ctx, "t", { firstPauseMs: 1, signal: stop.signal });
    await expect
      .poll(() => calls.filter((c) => c === "subscribe").length)
      .toBeGreaterThanOrEqual(3);
    stop.abort();
    expect(await waiting).toBeUndefined();
  });
});
