import { describe, expect, it } from "vitest";
import { Role, TaskState, type Message, type Task } from "@a2a-js/sdk";
import { slotOf, type Panel } from "../../../console/prompt-slot.js";
import { dataPart, textPart } from "../../../src/contract/messages.js";

const asking = (parts: Message["parts"], kind: string): Message => ({
  messageId: "m",
  contextId: "c",
  taskId: "t",
  role: Role.ROLE_AGENT,
  parts,
  metadata: { kind },
  extensions: [],
  referenceTaskIds: [],
});

const task = (state: TaskState, message?: Message, id = "t"): Task => ({
  id,
  contextId: "c",
  status: { state, message, timestamp: "2026-01-01T00:00:00Z" },
  artifacts: [],
  history: [],
  metadata: {},
});

const question = asking(
  [dataPart({ kind: "ask_user_question", questions: [{ question: "Which?", options: [] }] })],
  "ask_user_question",
);
const peerQuestion = asking(
  [
    dataPart({
      kind: "delegated_input",
      agent: "b",
      data: [{ kind: "ask_user_question", questions: [{ question: "Which?", options: [] }] }],
    }),
  ],
  "delegated_input",
);
const plan = asking(
  [textPart("# Plan"), dataPart({ kind: "plan_approval", plan: "# Plan" })],
  "plan_approval",
);
const rewind: Panel = { kind: "rewind", taskId: "t", phase: { step: "checking" } };
const fork: Panel = { kind: "fork", taskId: "t" };

describe("slotOf: what the slot under the timeline holds", () => {
  it.each<[string, Task, boolean, Panel | undefined, string, string | undefined]>([
    [
      "Claude's question",
      task(TaskState.TASK_STATE_INPUT_REQUIRED, question),
      true,
      undefined,
      "answer",
      undefined,
    ],
    [
      "a peer's question names the peer",
      task(TaskState.TASK_STATE_INPUT_REQUIRED, peerQuestion),
      true,
      undefined,
      "answer",
      "b",
    ],
    [
      "a plan to approve",
      task(TaskState.TASK_STATE_INPUT_REQUIRED, plan),
      false,
      undefined,
      "plan",
      undefined,
    ],
    [
      "a prompt wins over a panel left open",
      task(TaskState.TASK_STATE_INPUT_REQUIRED, question),
      true,
      fork,
      "answer",
      undefined,
    ],
    [
      "a working task with steering offered",
      task(TaskState.TASK_STATE_WORKING),
      true,
      undefined,
      "steer",
      undefined,
    ],
    [
      "a working task without it",
      task(TaskState.TASK_STATE_WORKING),
      false,
      undefined,
      "none",
      undefined,
    ],
    [
      "an ended task with the reader's rewind",
      task(TaskState.TASK_STATE_COMPLETED),
      true,
      rewind,
      "panel",
      undefined,
    ],
    [
      "an ended task with the reader's fork",
      task(TaskState.TASK_STATE_FAILED),
      true,
      fork,
      "panel",
      undefined,
    ],
    [
      "another task's panel",
      task(TaskState.TASK_STATE_COMPLETED, undefined, "other"),
      true,
      fork,
      "none",
      undefined,
    ],
    [
      "an ended task, nothing started",
      task(TaskState.TASK_STATE_COMPLETED),
      true,
      undefined,
      "none",
      undefined,
    ],
  ])("%s", (_, t, steer, panel, kind, peer) => {
    const slot = slotOf(t, steer, panel);
    expect(slot.kind).toBe(kind);
    if (slot.kind === "answer") expect(slot.peer).toBe(peer);
  });

  it("keys change with what the slot shows, so typed text survives a re-render but not a new prompt", () => {
    const a = slotOf(task(TaskState.TASK_STATE_INPUT_REQUIRED, question), true, undefined);
    expect(slotOf(task(TaskState.TASK_STATE_INPUT_REQUIRED, question), true, undefined).key).toBe(
      a.key,
    );
    expect(slotOf(task(TaskState.TASK_STATE_INPUT_REQUIRED, plan), true, undefined).key).not.toBe(
      a.key,
    );
    const checking = slotOf(task(TaskState.TASK_STATE_COMPLETED), true, rewind).key;
    const ready = slotOf(task(TaskState.TASK_STATE_COMPLETED), true, {
      ...rewind,
      phase: { step: "ready", dryRun: task(TaskState.TASK_STATE_COMPLETED) },
    }).key;
    expect(ready).not.toBe(checking);
    expect(slotOf(task(TaskState.TASK_STATE_WORKING), true, undefined).key).toBe("steer:t");
  });
});
