import { Role, type Message } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { inHistory, keepExchanged } from "../../../src/contract/history.js";
import { KIND, type StatusKind } from "../../../src/contract/kinds.js";
import { agentMessage, textPart } from "../../../src/contract/messages.js";

const ref = { taskId: "t-1", contextId: "c-1" };
const agent = (kind?: string): Message =>
  agentMessage(ref, [textPart("text")], kind === undefined ? undefined : { kind });
const user = (kind?: string): Message => ({
  ...agentMessage(ref, [textPart("text")], kind === undefined ? undefined : { kind }),
  role: Role.ROLE_USER,
});

/** Every kind a status message may carry, and whether it stays in the task's history. */
const KEPT: Record<StatusKind, boolean> = {
  tool_use: false,
  tool_result: false,
  result: true,
  ask_user_question: true,
  permission_request: true,
  resumed: false,
  queued: false,
  server_restarted: true,
  session_reset: true,
  background_wait: false,
  background_task: false,
  background_stopped: false,
  background_timeout: false,
  wake_interrupted: false,
  budget_reached: true,
  steered: true,
  plan_approval: true,
  rewound: true,
  forked: true,
  delegated: false,
  delegated_input: true,
  delivery: false,
  merge_approval: true,
};

describe("what a task's history keeps", () => {
  it("classifies every kind", () => {
    const artifactKinds: string[] = [
      KIND.assistantText,
      KIND.file,
      KIND.diff,
      KIND.proofOfWork,
      KIND.review,
    ];
    expect(Object.keys(KEPT).sort()).toEqual(
      Object.values(KIND)
        .filter((k) => !artifactKinds.includes(k))
        .sort(),
    );
  });

  for (const [kind, kept] of Object.entries(KEPT)) {
    it(`an agent message of kind ${kind}: ${kept ? "kept" : "left out"}`, () => {
      expect(inHistory(agent(kind))).toBe(kept);
    });
  }

  it.each([
    ["an unmarked agent message (an intro, the text of an end)", agent(), true],
    ["an agent message of a kind this server does not publish", agent("something_else"), true],
    ["a client's message", user(), true],
    ["a client's message whose metadata says tool_use", user(KIND.toolUse), true],
  ])("%s: kept", (_what, message, kept) => {
    expect(inHistory(message)).toBe(kept);
  });

  it("leaves the progress out of a history, in order, and returns a clean task as it is", () => {
    const history = [user(), agent(KIND.toolUse), agent(KIND.askUserQuestion), user()];
    history.push(agent(KIND.resumed), agent(KIND.result));
    const task = { id: "t-1", history };
    const kept = keepExchanged(task);
    expect(kept.history).toEqual([history[0], history[2], history[3], history[5]]);
    expect(task.history).toHaveLength(6);
    expect(keepExchanged(kept)).toBe(kept);
  });
});
