import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { answerDecision, type AnswerQuestion } from "../../../../src/a2a/handler/answer-guard.js";

/** The stored task's state by its short name; `none` is a task the store does not hold. */
const STATES = {
  none: undefined,
  completed: TaskState.TASK_STATE_COMPLETED,
  working: TaskState.TASK_STATE_WORKING,
  submitted: TaskState.TASK_STATE_SUBMITTED,
  input: TaskState.TASK_STATE_INPUT_REQUIRED,
} as const;

const stored = (state: keyof typeof STATES): AnswerQuestion["task"] => {
  const value = STATES[state];
  if (value === undefined) return undefined;
  return { contextId: "c1", status: { state: value, message: undefined, timestamp: undefined } };
};

type Row = [
  string,
  keyof typeof STATES,
  AnswerQuestion["live"],
  string,
  ReturnType<typeof answerDecision>,
];

describe("answerDecision: a message naming a task that is not steering", () => {
  it.each<Row>([
    ["unknown: the SDK's TaskNotFound", "none", undefined, "", "sdk"],
    ["ended: the SDK's refusal", "completed", undefined, "c1", "sdk"],
    ["working here", "working", "working", "c1", "working"],
    ["stored as working, not live here (a predecessor's)", "submitted", undefined, "", "working"],
    [
      "working here though the store still says input-required",
      "input",
      "working",
      "c1",
      "working",
    ],
    ["parked: an answer", "input", "parked", "c1", "claim"],
    ["parked, no contextId given: an answer", "input", "parked", "", "claim"],
    ["parked, another context: the SDK's InvalidParams", "input", "parked", "c2", "sdk"],
  ])("%s", (_name, state, live, contextId, expected) => {
    expect(answerDecision({ task: stored(state), live, contextId })).toBe(expected);
  });
});
