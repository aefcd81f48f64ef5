import { describe, expect, it } from "vitest";
import { TaskState, type Message } from "@a2a-js/sdk";
import { agentMessage, textPart } from "../../../../src/contract/messages.js";
import { cancelRefusal } from "../../../../src/a2a/handler/cancel-guard.js";

const task = (state: TaskState, message?: Message) => ({
  id: "t1",
  status: { state, message, timestamp: undefined },
});
/** A prompt a restart kept (docs/tasks.md "Answers across a restart"). */
const kept = agentMessage({ taskId: "t1", contextId: "c1" }, [textPart("kept")], {
  kind: "ask_user_question",
  restarted: true,
});

describe("cancelRefusal: what CancelTask refuses before the SDK sees it", () => {
  it.each<[string, ReturnType<typeof task> | undefined, boolean, string | undefined]>([
    ["unknown: the SDK's TaskNotFound", undefined, false, undefined],
    ["working here", task(TaskState.TASK_STATE_WORKING), true, undefined],
    ["parked here", task(TaskState.TASK_STATE_INPUT_REQUIRED), true, undefined],
    [
      "completed",
      task(TaskState.TASK_STATE_COMPLETED),
      false,
      "Task t1 is not cancelable: it has already ended (completed).",
    ],
    [
      "canceled already (the SDK would answer it as canceled again)",
      task(TaskState.TASK_STATE_CANCELED),
      false,
      "Task t1 is not cancelable: it has already ended (canceled).",
    ],
    [
      "stored as working, not running here",
      task(TaskState.TASK_STATE_WORKING),
      false,
      "Task t1 is not running on this server and cannot be canceled.",
    ],
    [
      "stored as input-required, not running here",
      task(TaskState.TASK_STATE_INPUT_REQUIRED),
      false,
      "Task t1 is not running on this server and cannot be canceled.",
    ],
    [
      "waiting on a prompt a restart kept: the SDK stores it canceled",
      task(TaskState.TASK_STATE_INPUT_REQUIRED, kept),
      false,
      undefined,
    ],
  ])("%s", (_name, stored, active, expected) => {
    expect(cancelRefusal(stored, active)).toBe(expected);
  });
});
