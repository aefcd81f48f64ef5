import { Role, TaskState, type Message, type Task } from "@a2a-js/sdk";
import { TaskNotFoundError } from "@a2a-js/sdk/errors";
import {
  AgentEvent,
  DefaultExecutionEventBusManager,
  ServerCallContext,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { beforeEach, describe, expect, it } from "vitest";
import { buildAgentCard } from "../../../../src/a2a/card/agent-card.js";
import { OperatorRequestHandler } from "../../../../src/a2a/handler/operator-request-handler.js";
import { guardedStack } from "../../../support/unit/guarded-stack.js";
import { resolveConfig } from "../../../../src/config/load.js";
import { CallerUser } from "../../../../src/identity/caller.js";
import { actingOperator } from "../../../../src/identity/operators.js";
import { memoryStores } from "../../../../src/store/task-stores.js";

const card = buildAgentCard(resolveConfig({}, { file: "test.json", startDir: "/work" }), {
  version: "0.0.0",
});
const as = (name: string) =>
  new ServerCallContext({ user: new CallerUser({ kind: "token", name }) });

/** A parked task's executor: answers complete it, cancels cancel it; records what reached it. */
class ParkedExecutor implements AgentExecutor {
  readonly executed: RequestContext[] = [];
  readonly cancelNotes: [string, string | undefined][] = [];
  isActive = () => true;
  liveState = () => "parked" as const;
  claimAnswer = () => undefined;
  releaseClaim = () => undefined;
  takeRefusal = () => undefined;

  execute = (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    this.executed.push(ctx);
    if (ctx.task) bus.publish(AgentEvent.task(ctx.task));
    bus.publish(AgentEvent.statusUpdate(update(ctx.taskId, TaskState.TASK_STATE_COMPLETED)));
    bus.finished();
    return Promise.resolve();
  };

  cancelTask = (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    bus.publish(AgentEvent.statusUpdate(update(taskId, TaskState.TASK_STATE_CANCELED)));
    bus.finished();
    return Promise.resolve();
  };
}

const update = (taskId: string, state: TaskState) => ({
  taskId,
  contextId: "ctx",
  status: { state, message: undefined, timestamp: new Date().toISOString() },
  metadata: undefined,
});

const parked = (id: string): Task => ({
  id,
  contextId: "ctx",
  status: {
    state: TaskState.TASK_STATE_INPUT_REQUIRED,
    message: undefined,
    timestamp: new Date().toISOString(),
  },
  artifacts: [],
  history: [],
  metadata: {},
});

const answer = (taskId: string): Message => ({
  messageId: crypto.randomUUID(),
  taskId,
  contextId: "ctx",
  role: Role.ROLE_USER,
  parts: [{ content: { $case: "text", value: "yes" }, mediaType: "", filename: "", metadata: {} }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

let executor: ParkedExecutor;
let handler: OperatorRequestHandler;
let lookups: string[];

beforeEach(async () => {
  executor = new ParkedExecutor();
  lookups = [];
  const stores = memoryStores();
  await stores.taskStore.save(parked("t-alice"), as("alice"));
  await stores.taskStore.save(parked("t-ops"), as("ops"));
  const busManager = new DefaultExecutionEventBusManager();
  // The parked task's bus exists, as it does while a task waits for an answer.
  busManager.createOrGetByTaskId("t-alice");
  handler = new OperatorRequestHandler(
    guardedStack({
      card,
      taskStore: stores.taskStore,
      executor,
      busManager,
      pushStore: stores.pushStore,
    }),
    {
      access: {
        operators: new Set(["token:ops"]),
        ownerOf: (taskId, tenant) => {
          lookups.push(taskId);
          return stores.everyOwner.ownerOf(taskId, tenant);
        },
        cancelingOperator: (taskId, name) => executor.cancelNotes.push([taskId, name]),
      },
    },
  );
});

describe("OperatorRequestHandler", () => {
  it("an operator gets another caller's task with its owner; a caller without the role does not, and costs no lookup", async () => {
    const seen = await handler.getTask(
      { tenant: "", id: "t-alice", historyLength: undefined },
      as("ops"),
    );
    expect(seen.metadata).toEqual({ owner: "token:alice" });
    await expect(
      handler.getTask({ tenant: "", id: "t-alice", historyLength: undefined }, as("bob")),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
    expect(lookups).toEqual(["t-alice"]);
    const own = await handler.getTask(
      { tenant: "", id: "t-ops", historyLength: undefined },
      as("ops"),
    );
    expect(own.metadata).toEqual({ owner: "token:ops" });
  });

  it("an operator's answer reaches the executor in the owner's scope, naming the operator", async () => {
    await handler.sendMessage(
      { tenant: "", message: answer("t-alice"), configuration: undefined, metadata: undefined },
      as("ops"),
    );
    const ctx = executor.executed[0];
    expect(ctx?.task?.id).toBe("t-alice");
    expect(ctx?.context?.user?.userName).toBe("token:alice");
    expect(actingOperator(ctx?.context?.state)).toBe("ops");
    // The answer itself names the operator: the owner's history keeps who answered.
    expect(ctx?.userMessage.metadata).toEqual({ answeredBy: "ops" });
    // Bob's answer to the same task: unknown to him.
    await expect(
      handler.sendMessage(
        { tenant: "", message: answer("t-alice"), configuration: undefined, metadata: undefined },
        as("bob"),
      ),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  it("an operator's own answer names no operator; a client cannot claim one answered", async () => {
    const forged = (taskId: string) => ({
      ...answer(taskId),
      metadata: { answeredBy: "ops", note: "kept" },
    });
    await handler.sendMessage(
      { tenant: "", message: forged("t-ops"), configuration: undefined, metadata: undefined },
      as("ops"),
    );
    expect(actingOperator(executor.executed[0]?.context?.state)).toBeUndefined();
    expect(executor.executed[0]?.userMessage.metadata).toEqual({ note: "kept" });
    await handler.sendMessage(
      { tenant: "", message: forged("t-alice"), configuration: undefined, metadata: undefined },
      as("alice"),
    );
    expect(executor.executed[1]?.userMessage.metadata).toEqual({ note: "kept" });
  });

  it("an operator's cancel tells the executor who cancels, then forgets it", async () => {
    const canceled = await handler.cancelTask(
      { tenant: "", id: "t-alice", metadata: undefined },
      as("ops"),
    );
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(executor.cancelNotes).toEqual([
      ["t-alice", "ops"],
      ["t-alice", undefined],
    ]);
  });

  it("push configs of another caller's task stay out of an operator's reach", async () => {
    await expect(
      handler.listTaskPushNotificationConfigs(
        { tenant: "", taskId: "t-alice", pageSize: 10, pageToken: "" },
        as("ops"),
      ),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
  });
});
