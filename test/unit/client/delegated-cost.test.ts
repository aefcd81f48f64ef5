/**
 * What the client shows of a task that delegated (docs/client.md, docs/peers.md "Cost rolls
 * up"): its whole cost, and the part its peers reported (`usage.delegated`) with their names
 * (`metadata.delegatedTasks`).
 */
import { describe, expect, it } from "vitest";
import { TaskState, type StreamResponse, type Task } from "@a2a-js/sdk";
import type { TaskUsage } from "../../../src/contract/usage.js";
import { delegatedAgentsOf } from "../../../src/contract/delegation.js";
import { makeColors } from "../../../src/client/colors.js";
import { taskDetail, taskTable } from "../../../src/client/task-view.js";
import { endText, statusEvent } from "./support/final-state.js";
import { costText } from "../../../src/client/usage-view.js";

const c = makeColors(false);
const own = {
  costUsd: 0.00066,
  inputTokens: 20,
  outputTokens: 40,
  cacheReadTokens: 0,
  cacheCreationTokens: 0,
};
const usage: TaskUsage = {
  ...own,
  models: { "claude-sonnet-4-5": own },
  modelTurns: 2,
  durationMs: 1500,
  runs: 1,
  delegated: { ...own, costUsd: 0.00033, cacheReadTokens: 100, calls: 2 },
};
const refs = (...agents: string[]) =>
  agents.map((agent, i) => ({ agent, taskId: `p${i}`, contextId: "x" }));

describe("the cost line of a task that delegated", () => {
  it.each([
    [[], "$0.00099 · 40 in, 80 out, 100 cache read tokens · incl. $0.00033 delegated"],
    [["b"], "$0.00099 · 40 in, 80 out, 100 cache read tokens · incl. $0.00033 delegated to b"],
    [
      ["b", "c"],
      "$0.00099 · 40 in, 80 out, 100 cache read tokens · incl. $0.00033 delegated to b and c",
    ],
    [
      ["b", "c", "d"],
      "$0.00099 · 40 in, 80 out, 100 cache read tokens · incl. $0.00033 delegated to b, c and d",
    ],
  ])("sums its own runs and its peers', naming the peers %j", (agents, text) => {
    expect(costText(usage, agents)).toBe(text);
  });

  it("is unchanged for a task that did not delegate", () => {
    const { delegated: _, ...alone } = usage;
    expect(costText(alone, ["b"])).toBe("$0.00066 · 20 in, 40 out tokens");
  });

  it("reads the peers' names once each, in call order, ignoring malformed entries", () => {
    expect(
      delegatedAgentsOf({ delegatedTasks: [...refs("b", "c", "b"), { agent: 3 }, null] }),
    ).toEqual(["b", "c"]);
    expect(delegatedAgentsOf({ delegatedTasks: "b" })).toEqual([]);
    expect(delegatedAgentsOf(undefined)).toEqual([]);
  });
});

const task = (state: TaskState, metadata: Record<string, unknown>): Task => ({
  id: "t1",
  contextId: "ctx",
  status: { state, message: undefined, timestamp: undefined },
  artifacts: [],
  history: [],
  metadata,
});

describe("send and chat after the final state", () => {
  it("name the peers of the turn's delegated statuses", () => {
    const working = TaskState.TASK_STATE_WORKING;
    expect(
      endText([
        statusEvent(working, { delegatedTasks: refs("b") }),
        statusEvent(working, { delegatedTasks: refs("b", "c") }),
        statusEvent(TaskState.TASK_STATE_COMPLETED, { usage }),
      ]),
    ).toBe(
      "[completed] $0.00099 · 40 in, 80 out, 100 cache read tokens · incl. $0.00033 delegated to b and c\n",
    );
  });

  it("name them from the task's snapshot on a later turn that did not delegate itself", () => {
    const snapshot: StreamResponse = {
      payload: {
        $case: "task",
        value: task(TaskState.TASK_STATE_WORKING, { delegatedTasks: refs("b") }),
      },
    };
    expect(endText([snapshot, statusEvent(TaskState.TASK_STATE_COMPLETED, { usage })])).toContain(
      "incl. $0.00033 delegated to b\n",
    );
  });
});

describe("tasks and task of a task that delegated", () => {
  const done = task(TaskState.TASK_STATE_COMPLETED, { usage, delegatedTasks: refs("b") });

  it("tasks' cost column is the whole cost", () => {
    expect(taskTable([done]).split("\n")[1]).toContain("$0.00099");
  });

  it("task shows the whole cost and tokens, each model's and the peers' part", () => {
    const text = taskDetail(done, c);
    expect(text).toContain("Cost     $0.00099  (1 run, 2 model turns, 1.5 s)\n");
    expect(text).toContain("Tokens   40 in, 80 out, 100 cache read tokens\n");
    expect(text).toContain("         claude-sonnet-4-5: $0.00066, 20 in, 40 out tokens\n");
    expect(text).toContain(
      "         delegated to b: $0.00033, 20 in, 40 out, 100 cache read tokens (2 calls)\n",
    );
  });
});
