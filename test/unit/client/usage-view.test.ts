/** What the client shows of a task's `metadata.usage`: after the final state, in `tasks` and `task`. */
import { describe, expect, it } from "vitest";
import { TaskState, type Task } from "@a2a-js/sdk";
import { formatUsd, type TaskUsage } from "../../../src/contract/usage.js";
import { makeColors } from "../../../src/client/colors.js";
import { taskDetail, taskTable } from "../../../src/client/task-view.js";
import { endText, statusEvent } from "./support/final-state.js";

const c = makeColors(false);
const usage: TaskUsage = {
  costUsd: 0.00099,
  inputTokens: 30,
  outputTokens: 60,
  cacheReadTokens: 0,
  cacheCreationTokens: 0,
  models: {
    "claude-sonnet-4-5": {
      costUsd: 0.00099,
      inputTokens: 30,
      outputTokens: 60,
      cacheReadTokens: 0,
      cacheCreationTokens: 0,
    },
  },
  modelTurns: 3,
  durationMs: 1234,
  runs: 2,
};

describe("the turn's cost after its final state", () => {
  it("follows [completed], and [failed]", () => {
    expect(endText([statusEvent(TaskState.TASK_STATE_COMPLETED, { usage })])).toBe(
      "[completed] $0.00099 · 30 in, 60 out tokens\n",
    );
    expect(endText([statusEvent(TaskState.TASK_STATE_FAILED, { usage })])).toBe(
      "[failed] $0.00099 · 30 in, 60 out tokens\n",
    );
  });

  it("names cache reads and writes when there are any", () => {
    const cached = { ...usage, cacheReadTokens: 1200, cacheCreationTokens: 5 };
    expect(endText([statusEvent(TaskState.TASK_STATE_COMPLETED, { usage: cached })])).toBe(
      "[completed] $0.00099 · 30 in, 60 out, 1,200 cache read, 5 cache write tokens\n",
    );
  });

  it("is left out with --no-cost, and when the agent reports none (another agent)", () => {
    expect(endText([statusEvent(TaskState.TASK_STATE_COMPLETED, { usage })], false)).toBe(
      "[completed]\n",
    );
    expect(endText([statusEvent(TaskState.TASK_STATE_COMPLETED)])).toBe("[completed]\n");
    expect(
      endText([statusEvent(TaskState.TASK_STATE_COMPLETED, { usage: { costUsd: "a lot" } })]),
    ).toBe("[completed]\n");
  });
});

const stored = (id: string, metadata: Record<string, unknown>): Task => ({
  id,
  contextId: "ctx",
  status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: undefined },
  artifacts: [],
  history: [],
  metadata,
});

describe("tasks and task", () => {
  it("tasks has a cost column, blank for a task without usage", () => {
    expect(taskTable([stored("t1", { usage }), stored("t2", {})])).toBe(
      [
        "ID  STATE      UPDATED  CONTEXT  ORIGIN  COST      TEXT",
        "t1  completed           ctx              $0.00099",
        "t2  completed           ctx",
        "",
      ].join("\n"),
    );
  });

  it("an operator's list (tasks naming their owner) has an owner column; task shows the owner", () => {
    expect(
      taskTable([stored("t1", { owner: "token:alice" }), stored("t2", { owner: "token:ops" })]),
    ).toBe(
      [
        "ID  STATE      UPDATED  CONTEXT  OWNER        ORIGIN  COST  TEXT",
        "t1  completed           ctx      token:alice",
        "t2  completed           ctx      token:ops",
        "",
      ].join("\n"),
    );
    expect(taskDetail(stored("t1", { owner: "token:alice" }), c)).toContain(
      "Owner    token:alice\n",
    );
  });

  it("task shows the cost, runs, model turns, wall time, tokens and each model", () => {
    const text = taskDetail(stored("t1", { usage }), c);
    expect(text).toContain("Cost     $0.00099  (2 runs, 3 model turns, 1.2 s)\n");
    expect(text).toContain("Tokens   30 in, 60 out tokens\n");
    expect(text).toContain("         claude-sonnet-4-5: $0.00099, 30 in, 60 out tokens\n");
  });

  it("formats dollars: two significant digits below a dollar, cents above", () => {
    expect([0, 0.00033, 0.0005, 0.0126, 0.5, 1, 12.345].map(formatUsd)).toEqual([
      "$0",
      "$0.00033",
      "$0.0005",
      "$0.013",
      "$0.50",
      "$1.00",
      "$12.35",
    ]);
  });
});
