import { TaskState, type Message, type Task } from "@a2a-js/sdk";
import {
  AgentEvent,
  DefaultExecutionEventBus,
  DefaultExecutionEventBusManager,
  InMemoryTaskStore,
  RequestContext,
  ServerCallContext,
  type AgentExecutor,
  type ExecutionEventBus,
  type TaskStore,
} from "@a2a-js/sdk/server";
import { describe, expect, it } from "vitest";
import { userMessage } from "../../../support/harness/messages.js";
import { buildAgentCard } from "../../../../src/a2a/card/agent-card.js";
import { FreshTasks } from "../../../../src/a2a/handler/fresh-tasks.js";
import { guardedStack } from "../../../support/unit/guarded-stack.js";
import { resolveConfig } from "../../../../src/config/load.js";

const card = buildAgentCard(resolveConfig({}, { file: "test.json", startDir: "/work" }), {
  version: "0.0.0",
});
const context = new ServerCallContext();

/** An in-memory store that records every call, in order. */
class RecordingStore extends InMemoryTaskStore {
  readonly calls: string[] = [];
  override load(taskId: string, ctx: ServerCallContext): Promise<Task | undefined> {
    this.calls.push(`load ${taskId}`);
    return super.load(taskId, ctx);
  }
  override save(task: Task, ctx: ServerCallContext): Promise<void> {
    this.calls.push(`save ${task.id} ${TaskState[task.status?.state ?? 0]}`);
    return super.save(task, ctx);
  }
}

const message = (taskId = ""): Message => userMessage("hi", { taskId, contextId: "ctx-1" });

const taskOf = (id: string, state: TaskState, history: Message[] = []): Task => ({
  id,
  contextId: "ctx-1",
  status: { state, message: undefined, timestamp: "" },
  artifacts: [],
  history,
  metadata: {},
});

const requestContext = (taskId: string, task?: Task) => {
  const request = { tenant: "", message: message(task ? taskId : ""), metadata: undefined };
  return new RequestContext(request as never, taskId, "ctx-1", context, task);
};

/** An executor whose `execute()` stays open until `end()`, reading the store meanwhile. */
function holdingExecutor(store: TaskStore) {
  let end!: () => void;
  const seen: (Task | undefined)[] = [];
  const executor: AgentExecutor = {
    execute: async (ctx) => {
      seen.push(await store.load(ctx.taskId, context));
      await new Promise<void>((resolve) => (end = resolve));
    },
    cancelTask: () => Promise.resolve(),
  };
  return { executor, seen, end: () => end() };
}

describe("FreshTasks", () => {
  it("answers the first load of a task being created without the store, then reads the store", async () => {
    const inner = new RecordingStore();
    const fresh = new FreshTasks();
    const store = fresh.store(inner);
    const held = holdingExecutor(store);
    const running = fresh.marking(held.executor).execute(requestContext("t-new"), bus());
    await flushed();
    expect(held.seen).toEqual([undefined]);
    expect(inner.calls).toEqual([]);

    await store.save(taskOf("t-new", TaskState.TASK_STATE_SUBMITTED), context);
    // From its first save on, the store answers: a load right after it sees it.
    expect((await store.load("t-new", context))?.status?.state).toBe(
      TaskState.TASK_STATE_SUBMITTED,
    );
    expect(inner.calls).toEqual(["save t-new TASK_STATE_SUBMITTED", "load t-new"]);
    held.end();
    await running;
  });

  it("marks nothing for a message to a stored task", async () => {
    const inner = new RecordingStore();
    const stored = taskOf("t-old", TaskState.TASK_STATE_INPUT_REQUIRED);
    await inner.save(stored, context);
    const fresh = new FreshTasks();
    const held = holdingExecutor(fresh.store(inner));
    const running = fresh.marking(held.executor).execute(requestContext("t-old", stored), bus());
    await flushed();
    expect(held.seen[0]?.id).toBe("t-old");
    expect(fresh.has("t-old")).toBe(false);
    held.end();
    await running;
  });

  it("forgets a task whose execute() settled without saving it", async () => {
    const fresh = new FreshTasks();
    const failing: AgentExecutor = {
      execute: () => Promise.reject(new Error("boom")),
      cancelTask: () => Promise.resolve(),
    };
    await expect(fresh.marking(failing).execute(requestContext("t-gone"), bus())).rejects.toThrow(
      "boom",
    );
    expect(fresh.has("t-gone")).toBe(false);
  });
});

describe("GuardedRequestHandler with a new task", () => {
  it("stores the task before the client sees it, without loading it from the store first", async () => {
    const inner = new RecordingStore();
    const executor = {
      isActive: () => false,
      liveState: () => undefined,
      claimAnswer: () => undefined,
      releaseClaim: () => undefined,
      takeRefusal: () => undefined,
      // Like the server's executor, it returns once the turn is over, not at once.
      execute: async (ctx: RequestContext, b: ExecutionEventBus): Promise<void> => {
        b.publish(AgentEvent.task(taskOf(ctx.taskId, TaskState.TASK_STATE_SUBMITTED)));
        await flushed();
        b.publish(
          AgentEvent.statusUpdate({
            taskId: ctx.taskId,
            contextId: ctx.contextId,
            status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: "" },
            metadata: undefined,
          }),
        );
        b.finished();
      },
      cancelTask: () => Promise.resolve(),
    };
    const handler = guardedStack({
      card,
      taskStore: inner,
      executor,
      busManager: new DefaultExecutionEventBusManager(),
    });
    const seen: string[] = [];
    for await (const event of handler.sendMessageStream(
      { tenant: "", message: message(), configuration: undefined, metadata: undefined },
      context,
    )) {
      const { payload } = event;
      const id = payload?.$case === "task" ? payload.value.id : undefined;
      // A client reading the task right after its first event sees it.
      if (id !== undefined) seen.push((await handler.getTask({ tenant: "", id }, context)).id);
    }
    const id = seen[0] as string;
    expect(seen).toEqual([id]);
    expect(inner.calls[0]).toBe(`save ${id} TASK_STATE_SUBMITTED`);
    expect(inner.calls).toContain(`save ${id} TASK_STATE_COMPLETED`);
  });
});

function bus(): ExecutionEventBus {
  return new DefaultExecutionEventBus();
}

/** Lets pending promise callbacks run. */
function flushed(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
