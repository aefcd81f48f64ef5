import { TaskState, type Message, type SendMessageRequest, type Task } from "@a2a-js/sdk";
import {
  ContentTypeNotSupportedError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from "@a2a-js/sdk/errors";
import {
  AgentEvent,
  DefaultExecutionEventBusManager,
  InMemoryTaskStore,
  ServerCallContext,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { beforeEach, describe, expect, it } from "vitest";
import { EVERY_TASK, userMessage } from "../../../support/harness/messages.js";
import { guardedStack } from "../../../support/unit/guarded-stack.js";
import { buildAgentCard } from "../../../../src/a2a/card/agent-card.js";
import type { GuardedRequestHandler } from "../../../../src/a2a/handler/guarded-request-handler.js";
import {
  historyLengthProblem,
  stillWorkingMessage,
} from "../../../../src/a2a/handler/guarded-request-handler.js";
import { resolveConfig } from "../../../../src/config/load.js";

const card = buildAgentCard(resolveConfig({}, { file: "test.json", startDir: "/work" }), {
  version: "0.0.0",
});

/** Records what reaches it; `active` is what `isActive` answers. */
class FakeExecutor implements AgentExecutor {
  readonly active = new Set<string>();
  readonly executed: RequestContext[] = [];
  readonly canceled: string[] = [];
  readonly claims: string[] = [];
  readonly releases: string[] = [];
  /** What `claimAnswer` answers: a reason to refuse, or undefined to accept. */
  claimRefusal: string | undefined = undefined;
  /** What `liveState` answers, by task id. */
  readonly live = new Map<string, "working" | "parked">();
  /** Answers `execute()` refuses (publishing nothing), by message id. */
  readonly refusals = new Map<string, string>();

  isActive(taskId: string): boolean {
    return this.active.has(taskId);
  }

  liveState(taskId: string): "working" | "parked" | undefined {
    return this.live.get(taskId);
  }

  takeRefusal(messageId: string): string | undefined {
    const why = this.refusals.get(messageId);
    this.refusals.delete(messageId);
    return why;
  }

  claimAnswer(taskId: string): string | undefined {
    this.claims.push(taskId);
    return this.claimRefusal;
  }

  releaseClaim(taskId: string): void {
    this.releases.push(taskId);
  }

  /** Set: `execute()` refuses an answer as the real executor does when its task moved on. */
  refuseInExecute: string | undefined = undefined;

  execute = (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    this.executed.push(ctx);
    if (ctx.task !== undefined && this.refuseInExecute !== undefined) {
      this.refusals.set(ctx.userMessage.messageId, this.refuseInExecute);
      return Promise.resolve();
    }
    const task = ctx.task ?? {
      id: ctx.taskId,
      contextId: ctx.contextId,
      status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: "" },
      artifacts: [],
      history: [ctx.userMessage],
      metadata: {},
    };
    bus.publish(AgentEvent.task(task));
    bus.publish(
      AgentEvent.statusUpdate({
        taskId: ctx.taskId,
        contextId: ctx.contextId,
        status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: "" },
        metadata: undefined,
      }),
    );
    bus.finished();
    return Promise.resolve();
  };

  cancelTask = (taskId: string): Promise<void> => {
    this.canceled.push(taskId);
    return Promise.resolve();
  };
}

const context = new ServerCallContext();
let store: InMemoryTaskStore;
let executor: FakeExecutor;
let handler: GuardedRequestHandler;

beforeEach(() => {
  store = new InMemoryTaskStore();
  executor = new FakeExecutor();
  handler = guardedStack({
    card,
    taskStore: store,
    executor,
    busManager: new DefaultExecutionEventBusManager(),
  });
});

const message = (taskId: string, contextId = "ctx-1"): Message =>
  userMessage("hi", { taskId, contextId });
const send = (taskId: string): SendMessageRequest => ({
  tenant: "",
  message: message(taskId),
  configuration: undefined,
  metadata: undefined,
});

async function storeTask(id: string, state: TaskState): Promise<Task> {
  const task: Task = {
    id,
    contextId: "ctx-1",
    status: { state, message: undefined, timestamp: "2025-01-01T00:00:00.000Z" },
    artifacts: [],
    history: [message(id)],
    metadata: { note: "original" },
  };
  await store.save(task, context);
  return task;
}

/** A refused request touched nothing: the stored task is as it was, and nothing ran. */
async function expectUntouched(before: Task): Promise<void> {
  expect(await store.load(before.id, context)).toEqual(before);
  expect(executor.executed).toEqual([]);
}

const cancel = (id: string) => handler.cancelTask({ tenant: "", id, metadata: undefined }, context);

describe("GuardedRequestHandler: one turn at a time", () => {
  it.each([TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_SUBMITTED])(
    "refuses a message for a task in %s with the docs' message, touching nothing",
    async (state) => {
      const before = await storeTask("busy-1", state);
      const refusal = handler.sendMessage(send("busy-1"), context);
      await expect(refusal).rejects.toThrow(UnsupportedOperationError);
      await expect(handler.sendMessage(send("busy-1"), context)).rejects.toThrow(
        "Task busy-1 is still working; wait for input-required or send a new message without taskId.",
      );
      await expectUntouched(before);
    },
  );

  it("refuses a streaming message for a working task before the stream opens", async () => {
    const before = await storeTask("busy-2", TaskState.TASK_STATE_WORKING);
    const stream = handler.sendMessageStream(send("busy-2"), context);
    await expect(stream.next()).rejects.toThrow(stillWorkingMessage("busy-2"));
    await expectUntouched(before);
    expect((await store.load("busy-2", context))?.history).toHaveLength(1);
  });

  it("spells the refusal exactly as the docs do", () => {
    expect(stillWorkingMessage("abc")).toBe(
      "Task abc is still working; wait for input-required or send a new message without taskId.",
    );
  });

  it("lets a message answering an input-required task through to the executor", async () => {
    await storeTask("parked", TaskState.TASK_STATE_INPUT_REQUIRED);
    const result = await handler.sendMessage(send("parked"), context);
    expect(executor.claims).toEqual(["parked"]);
    // Released when the request ends; the executor ignores it once the claim was used.
    expect(executor.releases).toEqual(["parked"]);
    expect(executor.executed.map((c) => c.taskId)).toEqual(["parked"]);
    expect(executor.executed[0]?.task?.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(result).toMatchObject({ id: "parked" });
    expect((await store.load("parked", context))?.history).toHaveLength(2);
  });

  it("refuses an answer the executor cannot take, touching nothing", async () => {
    const before = await storeTask("parked", TaskState.TASK_STATE_INPUT_REQUIRED);
    executor.claimRefusal = "it is not waiting for an answer on this server";
    await expect(handler.sendMessage(send("parked"), context)).rejects.toThrow(
      "Task parked cannot take this message: it is not waiting for an answer on this server.",
    );
    await expectUntouched(before);
  });

  it("gives the claim back when the SDK refuses the answer after the guard", async () => {
    const before = await storeTask("parked", TaskState.TASK_STATE_INPUT_REQUIRED);
    const params = send("parked");
    if (params.message) params.message.messageId = "";
    await expect(handler.sendMessage(params, context)).rejects.toThrow(/messageId/);
    expect(executor.claims).toEqual(["parked"]);
    expect(executor.releases).toEqual(["parked"]);
    expect(await store.load("parked", context)).toEqual(before);
  });

  it("refuses an answer when the live task is working though the store still says input-required", async () => {
    const before = await storeTask("lagging", TaskState.TASK_STATE_INPUT_REQUIRED);
    executor.live.set("lagging", "working");
    await expect(handler.sendMessage(send("lagging"), context)).rejects.toThrow(
      stillWorkingMessage("lagging"),
    );
    expect(executor.claims).toEqual([]);
    expect(await store.load("lagging", context)).toEqual(before);
  });

  it("turns an answer refused inside execute() into the refusal, for blocking and streaming sends", async () => {
    await storeTask("moved-on", TaskState.TASK_STATE_INPUT_REQUIRED);
    executor.refuseInExecute = "it ended before this answer reached it";
    const expected =
      "Task moved-on cannot take this message: it ended before this answer reached it.";
    await expect(handler.sendMessage(send("moved-on"), context)).rejects.toThrow(expected);
    const stream = handler.sendMessageStream(send("moved-on"), context);
    await expect(stream.next()).rejects.toThrow(expected);
    expect(executor.executed).toHaveLength(2);
    expect(executor.refusals.size).toBe(0);
  });

  it("lets a message without taskId through", async () => {
    await storeTask("busy-3", TaskState.TASK_STATE_WORKING);
    await handler.sendMessage(send(""), context);
    expect(executor.executed).toHaveLength(1);
    expect(executor.executed[0]?.taskId).not.toBe("busy-3");
  });

  it("leaves an unknown task id and a terminal task to the SDK's own answers", async () => {
    await expect(handler.sendMessage(send("nope"), context)).rejects.toThrow(TaskNotFoundError);
    await storeTask("done", TaskState.TASK_STATE_COMPLETED);
    const refusal = handler.sendMessage(send("done"), context);
    await expect(refusal).rejects.toThrow(
      "Task done is in a terminal state (completed) and cannot be modified.",
    );
    expect(executor.executed).toEqual([]);
  });

  it("names the state of a task that has ended by its word when a subscription is refused", async () => {
    await storeTask("gone", TaskState.TASK_STATE_CANCELED);
    const events = handler.resubscribe({ tenant: "", id: "gone" }, context);
    await expect(events.next()).rejects.toThrow(
      "Task gone is in a terminal state (canceled) and cannot be subscribed to.",
    );
  });
});

describe("GuardedRequestHandler: historyLength", () => {
  it.each([
    [undefined, undefined],
    [0, undefined],
    [10, undefined],
    [-1, "historyLength must be 0 or more (got -1)"],
  ])("historyLength %s: %s", (historyLength, problem) => {
    expect(historyLengthProblem(historyLength)).toBe(problem);
  });

  it("refuses a negative historyLength on GetTask, ListTasks and SendMessage, touching nothing", async () => {
    const before = await storeTask("kept", TaskState.TASK_STATE_COMPLETED);
    await expect(
      handler.getTask({ tenant: "", id: "kept", historyLength: -1 }, context),
    ).rejects.toThrow(RequestMalformedError);
    await expect(
      handler.listTasks(
        {
          tenant: "",
          contextId: "",
          status: TaskState.TASK_STATE_UNSPECIFIED,
          pageSize: undefined,
          pageToken: "",
          historyLength: -1,
          statusTimestampAfter: undefined,
          includeArtifacts: undefined,
        },
        context,
      ),
    ).rejects.toThrow("historyLength must be 0 or more (got -1)");
    const request = send("");
    request.configuration = {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      historyLength: -1,
      returnImmediately: false,
    };
    await expect(handler.sendMessage(request, context)).rejects.toThrow(RequestMalformedError);
    expect(executor.executed).toEqual([]);
    expect(await store.load("kept", context)).toEqual(before);
    // 0 is valid: the task without its history.
    const none = await handler.getTask({ tenant: "", id: "kept", historyLength: 0 }, context);
    expect(none.history).toEqual([]);
  });
});

describe("GuardedRequestHandler: cancel", () => {
  it.each([
    TaskState.TASK_STATE_WORKING,
    TaskState.TASK_STATE_SUBMITTED,
    TaskState.TASK_STATE_INPUT_REQUIRED,
  ])("refuses to cancel a %s task this server is not running", async (state) => {
    const before = await storeTask("orphan", state);
    await expect(cancel("orphan")).rejects.toThrow(TaskNotCancelableError);
    await expect(cancel("orphan")).rejects.toThrow(
      "Task orphan is not running on this server and cannot be canceled.",
    );
    expect(await store.load("orphan", context)).toEqual(before);
    expect(executor.canceled).toEqual([]);
  });

  it("answers TaskNotFound for an unknown task", async () => {
    await expect(cancel("missing")).rejects.toThrow(TaskNotFoundError);
  });

  it("answers TaskNotCancelable for a finished task", async () => {
    await storeTask("done", TaskState.TASK_STATE_FAILED);
    await expect(cancel("done")).rejects.toThrow(TaskNotCancelableError);
  });

  it("hands a task the executor is running to the SDK's cancel", async () => {
    await storeTask("live", TaskState.TASK_STATE_WORKING);
    executor.active.add("live");
    const task = await cancel("live");
    expect(task.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });
});

describe("GuardedRequestHandler: content modes", () => {
  const audio = (taskId: string): SendMessageRequest => {
    const request = send(taskId);
    request.message!.parts.push({
      content: { $case: "raw", value: Buffer.from("ID3") },
      mediaType: "audio/mpeg",
      filename: "a.mp3",
      metadata: undefined,
    });
    return request;
  };
  const imageOnly = (taskId: string): SendMessageRequest => ({
    ...send(taskId),
    configuration: {
      acceptedOutputModes: ["image/png"],
      taskPushNotificationConfig: undefined,
      historyLength: undefined,
      returnImmediately: false,
    },
  });

  it("refuses a part of an unaccepted type before anything runs, and creates no task", async () => {
    await expect(handler.sendMessage(audio(""), context)).rejects.toThrow(
      ContentTypeNotSupportedError,
    );
    await expect(handler.sendMessage(audio(""), context)).rejects.toThrow(
      /Message part 1 has media type 'audio\/mpeg'.*Accepted input modes: text\/plain, /,
    );
    const stream = handler.sendMessageStream(audio(""), context);
    await expect(stream.next()).rejects.toThrow(ContentTypeNotSupportedError);
    expect(executor.executed).toEqual([]);
    const listed = await handler.listTasks(EVERY_TASK, context);
    expect(listed.tasks).toEqual([]);
  });

  it("refuses an answer to a parked task with such a part without claiming it", async () => {
    const before = await storeTask("parked-ct", TaskState.TASK_STATE_INPUT_REQUIRED);
    await expect(handler.sendMessage(audio("parked-ct"), context)).rejects.toThrow(
      ContentTypeNotSupportedError,
    );
    expect(executor.claims).toEqual([]);
    expect(await store.load("parked-ct", context)).toEqual(before);
  });

  it("refuses acceptedOutputModes that exclude text/plain, on both methods", async () => {
    await expect(handler.sendMessage(imageOnly(""), context)).rejects.toThrow(
      /acceptedOutputModes \(image\/png\) excludes text\/plain/,
    );
    await expect(handler.sendMessageStream(imageOnly(""), context).next()).rejects.toThrow(
      ContentTypeNotSupportedError,
    );
    expect(executor.executed).toEqual([]);
  });
});

describe("GuardedRequestHandler: a message's model and effort", () => {
  const models = {
    defaultModel: "claude-sonnet-4-5",
    allowedModels: ["claude-opus-4-5"],
    defaultEffort: undefined,
    allowedEfforts: ["high"],
  };
  const asking = (metadata: Record<string, unknown>, taskId = ""): SendMessageRequest => {
    const request = send(taskId);
    request.message!.metadata = metadata;
    return request;
  };
  beforeEach(() => {
    handler = guardedStack({
      card,
      taskStore: store,
      executor,
      busManager: new DefaultExecutionEventBusManager(),
      policy: { models },
    });
  });

  it("refuses a model or effort not allowed with InvalidParams naming the allowed ones, before any task, on both methods", async () => {
    const refused = asking({ model: "claude-opus-4-1" });
    await expect(handler.sendMessage(refused, context)).rejects.toThrow(RequestMalformedError);
    await expect(handler.sendMessage(refused, context)).rejects.toThrow(
      'metadata.model "claude-opus-4-1" is not allowed on this server (claude.allowedModels); allowed: "claude-sonnet-4-5", "claude-opus-4-5".',
    );
    const stream = handler.sendMessageStream(asking({ effort: "max" }), context);
    await expect(stream.next()).rejects.toThrow(
      'metadata.effort "max" is not allowed on this server (claude.allowedEfforts); allowed: "high".',
    );
    expect(executor.executed).toEqual([]);
  });

  it("lets an allowed choice through, and ignores the keys on an answer to a parked task", async () => {
    await handler.sendMessage(asking({ model: "claude-opus-4-5", effort: "high" }), context);
    expect(executor.executed).toHaveLength(1);
    await storeTask("parked-1", TaskState.TASK_STATE_INPUT_REQUIRED);
    executor.live.set("parked-1", "parked");
    await handler.sendMessage(asking({ model: "nope" }, "parked-1"), context);
    expect(executor.claims).toEqual(["parked-1"]);
  });
});
