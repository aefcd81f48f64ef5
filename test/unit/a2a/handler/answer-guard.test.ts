import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { answerDecision, type AnswerQuestion } from "../../../../src/a2a/handler/answer-guard.js";

const stored = (state: TaskState) => ({
  contextId: "c1",
  status: { state, message: undefined, timestamp: undefined },
});

describe("answerDecision: a message naming a task that is not steering", () => {
  it.each<[string, AnswerQuestion, ReturnType<typeof answerDecision>]>([
    ["unknown: the SDK's TaskNotFound", { task: undefined, live: undefined, contextId: "" }, "sdk"],
    [
      "ended: the SDK's refusal",
      { task: stored(TaskState.TASK_STATE_COMPLETED), live: undefined, contextId: "c1" },
      "sdk",
    ],
    [
      "working here",
      { task: stored(TaskState.TASK_STATE_WORKING), live: "working", contextId: "c1" },
      "working",
    ],
    [
      "stored as working, not live here (a predecessor's)",
      { task: stored(TaskState.TASK_STATE_SUBMITTED), live: undefined, contextId: "" },
      "working",
    ],
    [
      "working here though the store still says input-required",
      { task: stored(TaskState.TASK_STATE_INPUT_REQUIRED), live: "working", contextId: "c1" },
      "working",
    ],
    [
      "parked: an answer",
      { task: stored(TaskState.TASK_STATE_INPUT_REQUIRED), live: "parked", contextId: "c1" },
      "claim",
    ],
    [
      "parked, no contextId given: an answer",
      { task: stored(TaskState.TASK_STATE_INPUT_REQUIRED), live: "parked", contextId: "" },
      "claim",
    ],
    [
      "parked, another context: the SDK's InvalidParams",
      { task: stored(TaskState.TASK_STATE_INPUT_REQUIRED), live: "parked", contextId: "c2" },
      "sdk",
    ],
  ])("%s", (_name, question, expected) => {
    expect(answerDecision(question)).toBe(expected);
  });
});
