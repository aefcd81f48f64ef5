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

describe("runEndFate: steering messages a run ended without are named, never dropped silently", () => {
  const steer = ["Also update the changelog."];
  const note = TEXT.steeringNotTaken(steer);
  it.each<[string, RunTerminalEvent, string | undefined, readonly string[], RunEndFate]>([
    [
      "a failed run: its reason, then them",
      failed,
      undefined,
      steer,
      {
        kind: "fail",
        text: `boom ${note}`,
      },
    ],
    [
      "an interrupted run: the same",
      interrupted,
      undefined,
      steer,
      {
        kind: "fail",
        text: `${TEXT.runInterrupted("interrupt requested")} ${note}`,
      },
    ],
    [
      "a run stopped by the budget: the same",
      interrupted,
      over,
      steer,
      {
        kind: "over_budget",
        text: `${over} ${note}`,
      },
    ],
    ["none untaken: the reason alone", failed, undefined, [], { kind: "fail", text: "boom" }],
    // A completed run hands them to the task's next turn before its end is decided.
    [
      "a completed run settles as always",
      completed("done"),
      undefined,
      steer,
      {
        kind: "settle",
        answer: "done",
      },
    ],
  ])("%s", (_name, event, overBudget, untakenSteering, fate) => {
    expect(
      runEndFate(event, { foreground: true, origin: "client", overBudget, untakenSteering }),
    ).toEqual(fate);
  });

  it("quotes each message, shortened past 200 characters, and says how many", () => {
    expect(TEXT.steeringNotTaken(["a"])).toBe(
      'A steering message was not delivered (the run ended before Claude took it): "a". Send it again in a new message.',
    );
    const two = TEXT.steeringNotTaken(["x".repeat(250), "b"]);
    expect(two).toContain(`2 steering messages were not delivered`);
    expect(two).toContain(`"${"x".repeat(200)}…", "b"`);
    expect(two).toContain("Send them again");
  });
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
