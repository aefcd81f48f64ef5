import { describe, expect, it } from "vitest";
import { steerDecision, type SteerQuestion } from "../../../../src/a2a/control/steer-decision.js";

const on = { extensionActive: true, enabled: true };

describe("steerDecision: what a message for a working task is", () => {
  it.each<[string, SteerQuestion, ReturnType<typeof steerDecision>]>([
    [
      "no header: refused as always",
      { ...on, extensionActive: false, steer: undefined },
      { kind: "refuse_working" },
    ],
    [
      "no header, even asking to steer",
      { ...on, extensionActive: false, steer: "now" },
      { kind: "refuse_working" },
    ],
    [
      "steering off: refused as always",
      { ...on, enabled: false, steer: "next" },
      { kind: "refuse_working" },
    ],
    [
      "header, no metadata.steer: next",
      { ...on, steer: undefined },
      { kind: "steer", priority: "next" },
    ],
    ["header, null: next", { ...on, steer: null }, { kind: "steer", priority: "next" }],
    ['header, "next"', { ...on, steer: "next" }, { kind: "steer", priority: "next" }],
    ['header, "now"', { ...on, steer: "now" }, { kind: "steer", priority: "now" }],
    [
      'header, "later": not a priority a client may ask for',
      { ...on, steer: "later" },
      { kind: "bad_request", reason: 'metadata.steer must be "next" or "now" (got "later")' },
    ],
    [
      "header, a number",
      { ...on, steer: 1 },
      { kind: "bad_request", reason: 'metadata.steer must be "next" or "now" (got 1)' },
    ],
  ])("%s", (_name, question, expected) => {
    expect(steerDecision(question)).toEqual(expected);
  });
});
