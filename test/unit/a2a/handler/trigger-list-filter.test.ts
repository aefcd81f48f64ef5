import { TaskState, type Task } from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import {
  DefaultExecutionEventBusManager,
  ServerCallContext,
  STATE_HEADERS_KEY,
  type AgentExecutor,
} from "@a2a-js/sdk/server";
import { beforeEach, describe, expect, it } from "vitest";
import { buildAgentCard } from "../../../../src/a2a/card/agent-card.js";
import { OperatorRequestHandler } from "../../../../src/a2a/handler/operator-request-handler.js";
import { resolveConfig } from "../../../../src/config/load.js";
import { TASK_TRIGGER_HEADER } from "../../../../src/contract/triggers.js";
import { CallerUser, type Caller } from "../../../../src/identity/caller.js";
import { memoryStores } from "../../../../src/store/task-stores.js";
import { guardedStack } from "../../../support/unit/guarded-stack.js";

const card = buildAgentCard(resolveConfig({}, { file: "test.json", startDir: "/work" }), {
  version: "0.0.0",
});

const context = (caller: Caller, trigger?: string) =>
  new ServerCallContext({
    user: new CallerUser(caller),
    state: new Map<string, unknown>([
      [STATE_HEADERS_KEY, trigger === undefined ? {} : { [TASK_TRIGGER_HEADER]: trigger }],
    ]),
  });
const token = (name: string): Caller => ({ kind: "token", name });
const trigger = (name: string): Caller => ({ kind: "trigger", name });

const done = (id: string, at: number): Task => ({
  id,
  contextId: `ctx-${id}`,
  status: {
    state: TaskState.TASK_STATE_COMPLETED,
    message: undefined,
    timestamp: new Date(Date.UTC(2026, 11, 7, 12, 0, at)).toISOString(),
  },
  artifacts: [],
  history: [],
  metadata: {},
});

const idle: AgentExecutor = {
  execute: () => Promise.resolve(),
  cancelTask: () => Promise.resolve(),
};

let handler: OperatorRequestHandler;

beforeEach(async () => {
  const stores = memoryStores();
  await stores.taskStore.save(done("n1", 1), context(trigger("nightly")));
  await stores.taskStore.save(done("n2", 2), context(trigger("nightly")));
  await stores.taskStore.save(done("o1", 3), context(trigger("other")));
  await stores.taskStore.save(done("a1", 4), context(token("alice")));
  handler = new OperatorRequestHandler(
    guardedStack({
      card,
      taskStore: stores.taskStore,
      executor: Object.assign(idle, {
        isActive: () => false,
        liveState: () => undefined,
        claimAnswer: () => undefined,
        releaseClaim: () => undefined,
        takeRefusal: () => undefined,
      }),
      busManager: new DefaultExecutionEventBusManager(),
      pushStore: stores.pushStore,
    }),
    {
      access: {
        operators: new Set(["token:ops"]),
        ownerOf: (taskId, tenant) => stores.everyOwner.ownerOf(taskId, tenant),
        cancelingOperator: () => undefined,
      },
    },
  );
});

const list = (ctx: ServerCallContext, pageSize?: number, pageToken = "") =>
  handler.listTasks(
    {
      tenant: "",
      contextId: "",
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize,
      pageToken,
      historyLength: 0,
      statusTimestampAfter: undefined,
      includeArtifacts: false,
    },
    ctx,
  );

describe("ListTasks with A2A-Task-Trigger", () => {
  it("an operator gets that trigger's tasks only, newest first, each with its owner", async () => {
    const listed = await list(context(token("ops"), "nightly"));
    expect(listed.tasks.map((t) => t.id)).toEqual(["n2", "n1"]);
    expect(listed.tasks.map((t) => t.metadata?.owner as unknown)).toEqual([
      "trigger:nightly",
      "trigger:nightly",
    ]);
    expect((await list(context(token("ops"), "other"))).tasks.map((t) => t.id)).toEqual(["o1"]);
    expect((await list(context(token("ops"), "none-such"))).tasks).toEqual([]);
  });

  it("pages through a trigger's tasks", async () => {
    const first = await list(context(token("ops"), "nightly"), 1);
    expect(first.tasks.map((t) => t.id)).toEqual(["n2"]);
    const second = await list(context(token("ops"), "nightly"), 1, first.nextPageToken);
    expect(second.tasks.map((t) => t.id)).toEqual(["n1"]);
  });

  it("without the header an operator still lists every caller's tasks", async () => {
    const listed = await list(context(token("ops")));
    expect(listed.tasks.map((t) => t.id)).toEqual(["a1", "o1", "n2", "n1"]);
  });

  it("a caller without the operator role sees none of a trigger's tasks", async () => {
    const listed = await list(context(token("alice"), "nightly"));
    expect(listed).toMatchObject({ tasks: [], nextPageToken: "", totalSize: 0 });
    expect((await list(context(token("alice")))).tasks.map((t) => t.id)).toEqual(["a1"]);
  });

  it("a value that cannot be a trigger's name is InvalidParams", async () => {
    await expect(list(context(token("ops"), "Nightly!"))).rejects.toThrow(RequestMalformedError);
    await expect(list(context(token("ops"), "Nightly!"))).rejects.toThrow(
      /A2A-Task-Trigger must be/,
    );
  });
});
