import { describe, expect, it } from "vitest";
import type { RunTerminalEvent } from "../../../../src/claude/index.js";
import { TEXT } from "../../../../src/contract/texts.js";
import { failedText, runEndFate, type RunEndFate } from "../../../../src/a2a/task/run-end.js";

const completed = (text: string): RunTerminalEvent => ({ kind: "run_completed", runId: "r", text });
const interrupted: RunTerminalEvent = {
  kind: "run_interrupted",
  runId: "r",
  reason: "interrupt requested",
  text: "partial",
};
const failed: RunTerminalEvent = { kind: "run_failed", runId: "r", reason: "boom" };
const over = "over its budget";

describe("runEndFate: what the end of a task's run means for the task", () => {
  const rows: [
    string,
    RunTerminalEvent,
    boolean,
    "client" | "autonomous",
    string | undefined,
    RunEndFate,
  ][] = [
    [
      "a completed run with text settles with it",
      completed("done"),
      true,
      "client",
      undefined,
      { kind: "settle", answer: "done" },
    ],
    [
      "a completed run without text keeps the last answer",
      completed(""),
      true,
      "client",
      undefined,
      { kind: "settle" },
    ],
    [
      "a completed wake of a client's task settles too",
      completed("later"),
      false,
      "client",
      undefined,
      { kind: "settle", answer: "later" },
    ],
    [
      "a failed run fails the task with its reason",
      failed,
      true,
      "client",
      undefined,
      { kind: "fail", text: "boom" },
    ],
    [
      "a failed run fails the task even over its budget",
      failed,
      true,
      "client",
      over,
      { kind: "fail", text: "boom" },
    ],
    [
      "a completed run over the budget stops the task for it",
      completed("done"),
      true,
      "client",
      over,
      { kind: "over_budget", text: over },
    ],
    [
      "an interrupted run over the budget stops the task for it",
      interrupted,
      false,
      "client",
      over,
      { kind: "over_budget", text: over },
    ],
    [
      "an interrupted foreground run fails the task",
      interrupted,
      true,
      "client",
      undefined,
      { kind: "fail", text: TEXT.runInterrupted("interrupt requested") },
    ],
    [
      "an interrupted wake of an autonomous task completes it",
      interrupted,
      false,
      "autonomous",
      undefined,
      { kind: "complete", note: TEXT.wakeInterrupted },
    ],
    [
      "an interrupted wake of a client's task says so and settles",
      interrupted,
      false,
      "client",
      undefined,
      { kind: "wake_interrupted" },
    ],
  ];
  for (const [name, event, foreground, origin, overBudget, fate] of rows) {
    it(name, () => {
      expect(runEndFate(event, { foreground, origin, overBudget })).toEqual(fate);
    });
  }
});

describe("failedText: what the client reads of a failed run", () => {
  it.each([
    [
      "names the login, not the runtime's words, when it is not logged in",
      { reason: "401 from api", cause: "authentication_failed" },
      TEXT.notLoggedIn,
    ],
    [
      "says a rejected prompt was dropped, with the reason",
      { reason: "too long", cause: "prompt_rejected" },
      TEXT.promptRejected("too long"),
    ],
    ["passes any other reason on", { reason: "boom" }, "boom"],
  ] as const)("%s", (_name, failure, text) => {
    expect(failedText({ kind: "run_failed", runId: "r", ...failure })).toBe(text);
  });
});
