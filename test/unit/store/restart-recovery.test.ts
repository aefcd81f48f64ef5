/**
 * What restart recovery makes of a task a stopped server left unfinished (docs/storage.md
 * "Restart recovery", docs/tasks.md "Answers across a restart"): a question or permission
 * request stays input-required with its prompt and a restart text; the rest is failed.
 */
import { TaskState, type Task } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { askUserQuestionData, permissionRequestData } from "../../../src/contract/data-parts.js";
import { KIND } from "../../../src/contract/kinds.js";
import { agentMessage, dataPart, textPart } from "../../../src/contract/messages.js";
import {
  isRestartParked,
  RESTART_PARKED_TEXT,
  storedPrompt,
} from "../../../src/contract/restart-parked.js";
import { keptParked, recoveryOf } from "../../../src/store/recovery.js";

const ref = { taskId: "t1", contextId: "c1" };
const question = askUserQuestionData([
  { question: "Which colour?", options: [{ label: "Red" }, { label: "Blue" }] },
]);
const permission = permissionRequestData({
  toolName: "Write",
  input: { file_path: "/x", content: "y" },
  title: undefined,
  decisionReason: undefined,
});

function task(state: TaskState, data?: unknown): Task {
  const message =
    data === undefined
      ? undefined
      : agentMessage(ref, [textPart("the prompt"), dataPart(data)], {
          kind: (data as { kind: string }).kind,
        });
  return {
    id: ref.taskId,
    contextId: ref.contextId,
    status: { state, message, timestamp: "2026-01-01T00:00:00.000Z" },
    history: message ? [message] : [],
    artifacts: [],
    metadata: {},
  };
}

describe("restart recovery: what an unfinished task becomes", () => {
  const rows: [string, Task, string][] = [
    ["submitted", task(TaskState.TASK_STATE_SUBMITTED), "fail"],
    ["working", task(TaskState.TASK_STATE_WORKING), "fail"],
    ["input-required, a question", task(TaskState.TASK_STATE_INPUT_REQUIRED, question), "keep"],
    ["input-required, a permission", task(TaskState.TASK_STATE_INPUT_REQUIRED, permission), "keep"],
    [
      "input-required, a plan",
      task(TaskState.TASK_STATE_INPUT_REQUIRED, { kind: KIND.planApproval, plan: "p" }),
      "fail",
    ],
    [
      // Its delivery's state lived in the process: nothing merges after a restart.
      "input-required, a merge approval",
      task(TaskState.TASK_STATE_INPUT_REQUIRED, {
        kind: KIND.mergeApproval,
        merge: { branch: "b", headCommit: "h", into: "main", intoCommit: "m", how: "fast-forward" },
        approvedBy: "caller",
      }),
      "fail",
    ],
    ["input-required, no prompt", task(TaskState.TASK_STATE_INPUT_REQUIRED), "fail"],
    ["auth-required", task(TaskState.TASK_STATE_AUTH_REQUIRED, question), "fail"],
    [
      "input-required, kept by an earlier start",
      keptParked(task(TaskState.TASK_STATE_INPUT_REQUIRED, question), new Date()),
      "kept",
    ],
  ];
  for (const [name, t, expected] of rows) {
    it(`${name}: ${expected}`, () => expect(recoveryOf(t)).toBe(expected));
  }

  it("a kept question keeps its prompt's data and kind, says what an answer does, and is marked", () => {
    const before = task(TaskState.TASK_STATE_INPUT_REQUIRED, question);
    const at = new Date("2026-02-02T00:00:00.000Z");
    const kept = keptParked(before, at);
    expect(kept.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(kept.status?.timestamp).toBe(at.toISOString());
    expect(kept.status?.message?.metadata).toEqual({ kind: KIND.askUserQuestion, restarted: true });
    const parts = kept.status?.message?.parts ?? [];
    expect(parts[0]?.content).toEqual({ $case: "text", value: RESTART_PARKED_TEXT.question });
    expect(storedPrompt(kept.status?.message)).toEqual({
      kind: "question",
      questions: question.questions,
    });
    expect(isRestartParked(kept)).toBe(true);
    expect(isRestartParked(before)).toBe(false);
    // The history keeps the prompt as first shown: no second copy of it.
    expect(kept.history).toEqual(before.history);
  });

  it("a kept permission request names the stopped call", () => {
    const kept = keptParked(task(TaskState.TASK_STATE_INPUT_REQUIRED, permission), new Date());
    const text = kept.status?.message?.parts[0]?.content;
    expect(text).toEqual({ $case: "text", value: RESTART_PARKED_TEXT.permission("Write") });
    expect(storedPrompt(kept.status?.message)).toEqual({
      kind: "permission",
      toolName: "Write",
      input: { file_path: "/x", content: "y" },
    });
  });
});
