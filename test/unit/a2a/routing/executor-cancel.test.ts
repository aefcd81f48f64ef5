import { TaskState, type Task } from "@a2a-js/sdk";
import { TaskNotCancelableError } from "@a2a-js/sdk/errors";
import {
  DefaultExecutionEventBusManager,
  DefaultRequestHandler,
  InMemoryTaskStore,
  ServerCallContext,
} from "@a2a-js/sdk/server";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { buildAgentCard } from "../../../../src/a2a/card/agent-card.js";
import { ClaudeAgentExecutor } from "../../../../src/a2a/routing/executor.js";
import { AutonomousTasks } from "../../../../src/a2a/routing/autonomous-tasks.js";
import { RunOwnership } from "../../../../src/a2a/routing/run-ownership.js";
import { resolveConfig } from "../../../../src/config/load.js";
import type { SessionPool } from "../../../../src/sessions/pool.js";

const config = resolveConfig({}, { file: "test.json", startDir: "/work" });

describe("ClaudeAgentExecutor.cancelTask", () => {
  it("releases the handler's wait when the task ended just before the cancel reached it", async () => {
    const store = new InMemoryTaskStore();
    const buses = new DefaultExecutionEventBusManager();
    const context = new ServerCallContext();
    const logger = pino({ level: "silent" });
    const executor = new ClaudeAgentExecutor({
      pool: {} as SessionPool, // never reached: no task runs in this test
      cwd: "/work",
      policy: {
        permissionPrompts: "input-required",
        maxPermissionDenials: 3,
        inputTimeoutMs: undefined,
        backgroundTasks: "wait",
        backgroundWaitTimeoutMs: 60_000,
        maxBudgetUsd: undefined,
      },
      taskStore: store,
      busManager: buses,
      logger,
      ownership: new RunOwnership(),
      autonomous: new AutonomousTasks({ taskStore: store, busManager: buses, logger }),
    });
    const handler = new DefaultRequestHandler(
      buildAgentCard(config, { version: "0" }),
      store,
      executor,
      buses,
    );
    // The race: the store still says WORKING and the bus is still there, but the executor's turn
    // has already ended (its terminal event went out, the SDK has not settled the bus yet).
    const task: Task = {
      id: "t-1",
      contextId: "c-1",
      status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined },
      artifacts: [],
      history: [],
      metadata: {},
    };
    await store.save(task, context);
    buses.createOrGetByTaskId(task.id, context);
    // Without the fix this never settles: the handler waits for a terminal event forever.
    await expect(
      handler.cancelTask({ tenant: "", id: task.id, metadata: undefined }, context),
    ).rejects.toBeInstanceOf(TaskNotCancelableError);
  });
});
