import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { stateWord, withStateWords } from "../../../src/contract/task-states.js";

describe("stateWord", () => {
  it.each([
    [TaskState.TASK_STATE_COMPLETED, "completed"],
    [TaskState.TASK_STATE_CANCELED, "canceled"],
    [TaskState.TASK_STATE_INPUT_REQUIRED, "input-required"],
    [TaskState.TASK_STATE_AUTH_REQUIRED, "auth-required"],
    [undefined, "unspecified"],
    [99 as TaskState, "99"],
  ])("%s is %s", (state, word) => {
    expect(stateWord(state)).toBe(word);
  });
});

describe("withStateWords", () => {
  it.each([
    [
      "the SDK's refusal of a message",
      `Task t1 is in a terminal state (${TaskState.TASK_STATE_COMPLETED}) and cannot be modified.`,
      "Task t1 is in a terminal state (completed) and cannot be modified.",
    ],
    [
      "the SDK's refusal of a subscription",
      `Task t1 is in a terminal state (${TaskState.TASK_STATE_CANCELED}) and cannot be subscribed to.`,
      "Task t1 is in a terminal state (canceled) and cannot be subscribed to.",
    ],
    [
      "a state that is a word already",
      "Task t1 is in a terminal state (failed) and cannot be modified.",
      "Task t1 is in a terminal state (failed) and cannot be modified.",
    ],
    ["a number that is no state", "bad state (99)", "bad state (99)"],
    ["no state at all", "Task not found: t1", "Task not found: t1"],
  ])("%s", (_name, text, expected) => {
    expect(withStateWords(text)).toBe(expected);
  });
});
