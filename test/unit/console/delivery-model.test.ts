import { describe, expect, it } from "vitest";
import {
  byRound,
  checkRunOf,
  endWords,
  labelOf,
  roundVerdict,
  stageOf,
  type CheckRun,
  type DeliveryEntry,
} from "../../../console/delivery-model.js";
import { applyEvent, modelOf } from "../../../console/task-model.js";
import type { CheckRun as ContractRun } from "../../../src/contract/delivery.js";
import { newTask } from "../../../src/contract/messages.js";
import { status } from "../../../src/contract/statuses.js";
import { ev, firstMessage, ref } from "./support/task-events.js";

const run = (round: number, check: string, result: CheckRun["result"], exitCode: number | null) =>
  ({
    round,
    check,
    command: `run ${check}`,
    result,
    exitCode,
    durationMs: 1200,
    outputTail: result === "passed" ? "" : `${check} broke`,
  }) satisfies ContractRun;

// The console restates the contract's shape (its module needs Node): both ways assignable.
const contractRun: ContractRun = run(1, "a", "passed", 0);
const consoleRun: CheckRun = contractRun;
const backAgain: ContractRun = consoleRun;

const statusOf = (r: ContractRun) => ev({ $case: "statusUpdate", value: status.delivery(ref, r) });
const stepOf = (text: string, meta: Record<string, unknown>) =>
  ev({ $case: "statusUpdate", value: status.deliveryStep(ref, text, meta) });

describe("a delivery in the console's model", () => {
  it("groups consecutive checks by round, the fix turn between them, then a step's stages", () => {
    const model = modelOf(newTask(ref, firstMessage("Do the work")));
    applyEvent(model, statusOf(run(1, "test", "failed", 1)));
    applyEvent(model, statusOf(run(1, "lint", "passed", 0)));
    applyEvent(model, ev({ $case: "statusUpdate", value: status.result(ref, "Fixed it.") }));
    applyEvent(model, statusOf(run(2, "test", "passed", 0)));
    applyEvent(model, statusOf(run(2, "lint", "passed", 0)));
    applyEvent(
      model,
      stepOf("Pushed claude-a2a/c-1 to origin.", { step: "push", remote: "origin" }),
    );
    applyEvent(
      model,
      stepOf("Opened pull request #7.", {
        step: "pull-request",
        url: "http://127.0.0.1:1/pr/7",
        number: 7,
      }),
    );
    const shape = model.entries.map((e) =>
      e.type === "delivery"
        ? `${e.group.kind === "round" ? `round ${e.group.round}` : e.group.step}: ${e.stages.length}`
        : e.type,
    );
    expect(shape).toEqual([
      "message",
      "round 1: 2",
      "status",
      "round 2: 2",
      "push: 1",
      "pull-request: 1",
    ]);
    const first = model.entries[1] as DeliveryEntry;
    expect(first.stages[0]).toEqual({
      kind: "check",
      run: run(1, "test", "failed", 1),
      text: "Delivery round 1: check test failed with exit code 1 (1.2 s).",
    });
    const pr = model.entries[5] as DeliveryEntry;
    expect(pr.stages[0]).toEqual({
      kind: "step",
      step: "pull-request",
      text: "Opened pull request #7.",
      fields: { url: "http://127.0.0.1:1/pr/7", number: 7 },
    });
    // The protocol details still list every status.
    expect(model.log.filter((l) => l.kind === "delivery")).toHaveLength(6);
  });

  it("shows a delivery status of a shape it does not know as a plain status", () => {
    const model = modelOf(newTask(ref, firstMessage("Do the work")));
    applyEvent(model, stepOf("Something new.", { round: "one" }));
    expect(model.entries.at(-1)).toMatchObject({
      type: "status",
      kind: "delivery",
      text: "Something new.",
    });
  });

  it("reads a check run only whole", () => {
    expect(checkRunOf({ ...backAgain })).toEqual(contractRun);
    expect(checkRunOf({ ...run(1, "t", "timed_out", null) })).toEqual(
      run(1, "t", "timed_out", null),
    );
    expect(checkRunOf({ ...run(1, "t", "failed", 1), result: "exploded" })).toBeUndefined();
    expect(checkRunOf({ ...run(1, "t", "failed", 1), exitCode: "1" })).toBeUndefined();
    expect(stageOf({ step: "" }, "x")).toBeUndefined();
  });

  it("says how a round and a check went", () => {
    expect(roundVerdict([run(1, "a", "passed", 0)])).toBe("1 passed");
    expect(roundVerdict([run(1, "a", "failed", 1), run(1, "b", "passed", 0)])).toBe(
      "1 of 2 failed",
    );
    expect(endWords(run(1, "a", "failed", 2))).toBe("exit code 2");
    expect(endWords(run(1, "a", "failed", null))).toBe("ended by a signal");
    expect(endWords(run(1, "a", "timed_out", null))).toBe("timed out");
    expect(
      byRound([run(1, "a", "failed", 1), run(1, "b", "passed", 0), run(2, "a", "passed", 0)]).map(
        (r) => [r.round, r.runs.map((x) => x.check)],
      ),
    ).toEqual([
      [1, ["a", "b"]],
      [2, ["a"]],
    ]);
    expect(labelOf("pullRequest")).toBe("Pull request");
    expect(labelOf("head_commit")).toBe("Head commit");
  });
});
