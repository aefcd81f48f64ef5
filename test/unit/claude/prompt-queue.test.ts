import { describe, expect, it } from "vitest";
import { nextStep, type QueueState, type QueueStep } from "../../../src/claude/prompt-queue.js";

const free: QueueState = {
  waiting: true,
  busy: false,
  unusable: false,
  turn: "idle",
  handoffRequested: false,
};

describe("nextStep: what the prompt queue does when asked to move on", () => {
  const rows: [string, Partial<QueueState>, QueueStep][] = [
    ["a waiting prompt goes when the turn is free", {}, "send"],
    ["nothing waits: nothing to do", { waiting: false }, "wait"],
    ["nothing waits on a dead process: nothing to end", { waiting: false, unusable: true }, "wait"],
    ["a foreground run or a switch holds it back", { busy: true }, "wait"],
    ["busy wins over a dead process (the run ends first)", { busy: true, unusable: true }, "wait"],
    ["a closing or ended process ends what waits", { unusable: true }, "end_all"],
    ["the runtime's own foreground turn: wait for it", { turn: "foreground" }, "wait"],
    ["an autonomous turn is handed off", { turn: "autonomous" }, "hand_off"],
    [
      "a handoff asked already: wait for its teardown",
      { turn: "autonomous", handoffRequested: true },
      "wait",
    ],
    [
      "a dead process ends prompts even during an autonomous turn",
      { turn: "autonomous", unusable: true },
      "end_all",
    ],
  ];
  for (const [name, state, step] of rows) {
    it(name, () => {
      expect(nextStep({ ...free, ...state })).toBe(step);
    });
  }
});
