/** Push credentials are write-only: Create, Get and List never carry them; the store keeps them. */
import { TaskState, type Task, type TaskPushNotificationConfig } from "@a2a-js/sdk";
import {
  DefaultExecutionEventBusManager,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  ServerCallContext,
  type AgentExecutor,
} from "@a2a-js/sdk/server";
import { describe, expect, it } from "vitest";
import { buildAgentCard } from "../../../../src/a2a/card/agent-card.js";
import { sdkRequestHandler } from "../../../../src/a2a/handler/sdk-handler.js";
import { WriteOnlyPushHandler } from "../../../../src/a2a/handler/write-only-push.js";
import { withoutCredentials } from "../../../../src/a2a/push/write-only.js";
import { resolveConfig } from "../../../../src/config/load.js";

const card = buildAgentCard(resolveConfig({}, { file: "test.json", startDir: "/work" }), {
  version: "0.0.0",
});

const config = (over: Partial<TaskPushNotificationConfig> = {}): TaskPushNotificationConfig => ({
  tenant: "",
  id: "cfg-1",
  taskId: "t-1",
  url: "https://hooks.example/a",
  token: "tok-secret",
  authentication: { scheme: "Bearer", credentials: "bearer-secret" },
  ...over,
});

describe("withoutCredentials", () => {
  it.each([
    ["token and Bearer credentials", config(), { scheme: "Bearer", credentials: "" }],
    ["a token, no authentication", config({ authentication: undefined }), undefined],
    [
      "authentication without a token",
      config({ token: "" }),
      { scheme: "Bearer", credentials: "" },
    ],
  ])("%s: empties both, keeps the scheme and everything else", (_name, given, auth) => {
    expect(withoutCredentials(given)).toEqual({ ...given, token: "", authentication: auth });
  });

  it("does not change the config it is given", () => {
    const given = config();
    withoutCredentials(given);
    expect(given).toEqual(config());
  });
});

describe("WriteOnlyPushHandler", () => {
  it("answers Create, Get and List without credentials, and stores them for delivery", async () => {
    const tasks = new InMemoryTaskStore();
    const push = new InMemoryPushNotificationStore();
    const context = new ServerCallContext();
    const task: Task = {
      id: "t-1",
      contextId: "ctx-1",
      status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: "" },
      artifacts: [],
      history: [],
      metadata: {},
    };
    await tasks.save(task, context);
    const executor: AgentExecutor = {
      execute: () => Promise.resolve(),
      cancelTask: () => Promise.resolve(),
    };
    const handler = new WriteOnlyPushHandler(
      sdkRequestHandler({
        card,
        taskStore: tasks,
        executor,
        busManager: new DefaultExecutionEventBusManager(),
        pushStore: push,
      }),
    );
    const noSecret = { token: "", authentication: { scheme: "Bearer", credentials: "" } };

    const created = await handler.createTaskPushNotificationConfig(config(), context);
    expect(created).toMatchObject({ id: "cfg-1", url: config().url, ...noSecret });
    const got = await handler.getTaskPushNotificationConfig(
      { tenant: "", taskId: "t-1", id: "cfg-1" },
      context,
    );
    expect(got).toMatchObject({ id: "cfg-1", ...noSecret });
    const listed = await handler.listTaskPushNotificationConfigs(
      { tenant: "", taskId: "t-1", pageSize: 0, pageToken: "" },
      context,
    );
    expect(listed.configs).toEqual([expect.objectContaining({ id: "cfg-1", ...noSecret })]);
    expect(JSON.stringify(listed)).not.toMatch(/secret/);

    const stored = await push.load("t-1", context);
    expect(stored).toEqual([
      expect.objectContaining({
        token: "tok-secret",
        authentication: { scheme: "Bearer", credentials: "bearer-secret" },
      }),
    ]);
  });
});
