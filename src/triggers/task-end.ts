import type { Task } from "@a2a-js/sdk";
import type { A2ARequestHandler, ServerCallContext } from "@a2a-js/sdk/server";
import { isTerminalState } from "../contract/task-states.js";

/**
 * Waits for a task to end as any A2A client would: GetTask, then SubscribeToTask until a
 * terminal status, again after a stream that stops short (a task waiting for an operator ends
 * its stream and keeps its bus). Through the request handler only, so nothing of the task's core
 * knows it is watched. A subscription that yields nothing new (no live bus: the task belongs to
 * another instance, or streaming is off) is retried after a growing pause.
 */

export interface EndWait {
  /** Stops waiting (shutdown): the promise resolves undefined. */
  readonly signal?: AbortSignal;
  /** The pauses between subscriptions that yielded nothing (default 1 s, doubling to 30 s). */
  readonly firstPauseMs?: number;
  readonly maxPauseMs?: number;
}

export async function waitForEnd(
  handler: A2ARequestHandler,
  context: ServerCallContext,
  taskId: string,
  o: EndWait = {},
): Promise<Task | undefined> {
  let pause = o.firstPauseMs ?? 1000;
  const maxPause = o.maxPauseMs ?? 30_000;
  // A function: TypeScript would narrow a property read once to "not aborted" for good.
  const aborted = (): boolean => o.signal?.aborted === true;
  while (!aborted()) {
    const task = await handler.getTask({ tenant: "", id: taskId, historyLength: 0 }, context);
    if (isTerminalState(task.status?.state)) return task;
    let events = 0;
    try {
      for await (const event of handler.resubscribe({ tenant: "", id: taskId }, context)) {
        if (aborted()) return undefined;
        if (event.payload?.$case !== "task") events += 1;
        if (
          event.payload?.$case === "statusUpdate" &&
          isTerminalState(event.payload.value.status?.state)
        ) {
          break;
        }
      }
    } catch {
      // Ended between the two calls (a terminal task cannot be subscribed to), or streaming is
      // off: the next GetTask says which.
    }
    if (events > 0) {
      pause = o.firstPauseMs ?? 1000;
      continue;
    }
    await sleep(pause, o.signal);
    pause = Math.min(pause * 2, maxPause);
  }
  return undefined;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    timer.unref();
    signal?.addEventListener("abort", done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
