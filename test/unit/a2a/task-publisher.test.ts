import {
  TaskState,
  type Task,
  type TaskArtifactUpdateEvent,
  type TaskStatusUpdateEvent,
} from "@a2a-js/sdk";
import type { AgentExecutionEvent, ExecutionEventBus } from "@a2a-js/sdk/server";
import { pino } from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import { isTerminalState, TaskPublisher } from "../../../src/a2a/task-publisher.js";

const ref = { taskId: "task-1", contextId: "ctx-1" };
const logger = pino({ level: "silent" });

let published: AgentExecutionEvent[];
let publisher: TaskPublisher;
beforeEach(() => {
  published = [];
  const bus = {
    publish: (event: AgentExecutionEvent) => published.push(event),
  } as unknown as ExecutionEventBus;
  publisher = new TaskPublisher(ref, bus, logger);
});

const status = (state: TaskState, text = ""): TaskStatusUpdateEvent => ({
  ...ref,
  status: { state, message: undefined, timestamp: text },
  metadata: undefined,
});
const artifact = (id: string): TaskArtifactUpdateEvent => ({
  ...ref,
  artifact: { artifactId: id, name: id, description: "", parts: [], metadata: {}, extensions: [] },
  append: false,
  lastChunk: true,
  metadata: undefined,
});
const task = (state: TaskState): Task => ({
  id: ref.taskId,
  contextId: ref.contextId,
  status: { state, message: undefined, timestamp: "" },
  artifacts: [],
  history: [],
  metadata: {},
});

/** What reached the bus, as "kind:detail". */
const seen = () =>
  published.map((e) => {
    switch (e.kind) {
      case "statusUpdate":
        return `status:${TaskState[e.data.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED]}`;
      case "artifactUpdate":
        return `artifact:${e.data.artifact?.artifactId}`;
      case "task":
        return `task:${TaskState[e.data.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED]}`;
      default:
        return e.kind;
    }
  });

describe("TaskPublisher", () => {
  it("forwards task, status and artifact events while the task is not terminal", () => {
    publisher.task(task(TaskState.TASK_STATE_SUBMITTED));
    publisher.status(status(TaskState.TASK_STATE_WORKING));
    publisher.artifact(artifact("a1"));
    expect(seen()).toEqual([
      "task:TASK_STATE_SUBMITTED",
      "status:TASK_STATE_WORKING",
      "artifact:a1",
    ]);
    expect(publisher.isTerminal).toBe(false);
    expect(published[1]).toEqual({
      kind: "statusUpdate",
      data: status(TaskState.TASK_STATE_WORKING),
    });
  });

  it.each([
    TaskState.TASK_STATE_COMPLETED,
    TaskState.TASK_STATE_FAILED,
    TaskState.TASK_STATE_CANCELED,
    TaskState.TASK_STATE_REJECTED,
  ])("publishes exactly one terminal status (%s) and drops everything after it", (terminal) => {
    publisher.status(status(TaskState.TASK_STATE_WORKING));
    publisher.status(status(terminal));
    expect(publisher.isTerminal).toBe(true);
    publisher.status(status(TaskState.TASK_STATE_FAILED));
    publisher.status(status(TaskState.TASK_STATE_COMPLETED));
    publisher.status(status(TaskState.TASK_STATE_CANCELED));
    publisher.status(status(TaskState.TASK_STATE_WORKING));
    publisher.artifact(artifact("late"));
    publisher.task(task(TaskState.TASK_STATE_WORKING));
    expect(seen()).toEqual(["status:TASK_STATE_WORKING", `status:${TaskState[terminal]}`]);
  });

  it("does not treat input-required (or auth-required) as terminal", () => {
    publisher.status(status(TaskState.TASK_STATE_INPUT_REQUIRED));
    expect(publisher.isTerminal).toBe(false);
    publisher.task(task(TaskState.TASK_STATE_INPUT_REQUIRED));
    publisher.status(status(TaskState.TASK_STATE_WORKING));
    publisher.status(status(TaskState.TASK_STATE_AUTH_REQUIRED));
    publisher.artifact(artifact("a"));
    publisher.status(status(TaskState.TASK_STATE_COMPLETED));
    publisher.status(status(TaskState.TASK_STATE_COMPLETED));
    expect(seen()).toEqual([
      "status:TASK_STATE_INPUT_REQUIRED",
      "task:TASK_STATE_INPUT_REQUIRED",
      "status:TASK_STATE_WORKING",
      "status:TASK_STATE_AUTH_REQUIRED",
      "artifact:a",
      "status:TASK_STATE_COMPLETED",
    ]);
  });
});

describe("TaskPublisher with a persist hook", () => {
  it("stores exactly what reaches the bus, nothing after the terminal status", () => {
    const bus: AgentExecutionEvent[] = [];
    const stored: AgentExecutionEvent[] = [];
    const pub = new TaskPublisher(
      ref,
      { publish: (e: AgentExecutionEvent) => bus.push(e) } as unknown as ExecutionEventBus,
      logger,
      (e) => stored.push(e),
    );
    pub.status(status(TaskState.TASK_STATE_INPUT_REQUIRED));
    pub.status(status(TaskState.TASK_STATE_FAILED));
    pub.status(status(TaskState.TASK_STATE_CANCELED));
    pub.artifact(artifact("late"));
    expect(stored).toEqual(bus);
    expect(stored.map((e) => e.kind)).toEqual(["statusUpdate", "statusUpdate"]);
  });
});

describe("isTerminalState", () => {
  it("is true for completed, failed, canceled and rejected only", () => {
    const terminal = Object.values(TaskState)
      .filter((s): s is TaskState => typeof s === "number")
      .filter((s) => isTerminalState(s))
      .map((s) => TaskState[s]);
    expect(terminal.sort()).toEqual(
      [
        "TASK_STATE_CANCELED",
        "TASK_STATE_COMPLETED",
        "TASK_STATE_FAILED",
        "TASK_STATE_REJECTED",
      ].sort(),
    );
    expect(isTerminalState(undefined)).toBe(false);
  });
});
