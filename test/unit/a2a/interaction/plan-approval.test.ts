import { describe, expect, it } from "vitest";
import {
  inputRequestContent,
  parseAnswer,
  type InputRequest,
} from "../../../../src/a2a/interaction/answers.js";
import { DenialLedger, inputRequestFor } from "../../../../src/a2a/interaction/loop-protection.js";
import {
  decidePlanReply,
  NOT_CLEAR_REASON,
} from "../../../../src/a2a/interaction/permission-reply.js";
import { verdictFor } from "../../../../src/a2a/task/input-requests.js";
import { PLAN_TEXT } from "../../../../src/contract/plan.js";
import { DENIAL, TEXT } from "../../../../src/contract/texts.js";
import { textPart, dataPart } from "../../../../src/contract/messages.js";

const PLAN = "# Plan\n\n1. Write hello.txt.\n";
const INPUT = { plan: PLAN, planFilePath: "/config/plans/make-hello.md" };

const plan: InputRequest = {
  kind: "plan",
  toolName: "ExitPlanMode",
  input: INPUT,
  plan: PLAN,
  modeAfter: "acceptEdits",
};

describe("a reply to a plan (pure): anything but a clear yes is feedback", () => {
  it.each([
    ["yes", { decision: "allow" }],
    ["OK, go", { decision: "allow" }],
    ["oui", { decision: "allow" }],
    ["no", { decision: "deny", reason: undefined }],
    ["Also add a README", { decision: "deny", reason: "Also add a README" }],
    ["yes but add tests", { decision: "deny", reason: "yes but add tests" }],
    ["yes?", { decision: "deny", reason: undefined }],
    ["maybe", { decision: "deny", reason: undefined }],
    ["  no, keep it smaller  ", { decision: "deny", reason: "no, keep it smaller" }],
    ["", { decision: "deny", reason: undefined }],
    // The words people use for it approve a plan, under the same rules as a yes.
    ["approve", { decision: "allow" }],
    ["Approved.", { decision: "allow" }],
    ["LGTM", { decision: "allow" }],
    ["lgtm, go", { decision: "allow" }],
    ["lgtm?", { decision: "deny", reason: undefined }],
    ["not approved", { decision: "deny", reason: "not approved" }],
    ["approve but add tests", { decision: "deny", reason: "approve but add tests" }],
    ["approve maybe", { decision: "deny", reason: "approve maybe" }],
  ] as const)("%j", (reply, expected) => {
    expect(decidePlanReply(reply)).toEqual(expected);
    // Never the permission table's "not a clear yes or no": the reply itself goes to Claude.
    expect(JSON.stringify(decidePlanReply(reply))).not.toContain(NOT_CLEAR_REASON);
  });

  it("reads a structured permission_response as for a permission, else the text", () => {
    const allow = parseAnswer(plan, {
      parts: [dataPart({ kind: "permission_response", decision: "allow" })],
    });
    expect(allow).toEqual({ kind: "permission", decision: { decision: "allow" } });
    const deny = parseAnswer(plan, {
      parts: [dataPart({ kind: "permission_response", decision: "deny", reason: "smaller" })],
    });
    expect(deny).toEqual({ kind: "permission", decision: { decision: "deny", reason: "smaller" } });
    expect(parseAnswer(plan, { parts: [textPart("Also add a README")] })).toEqual({
      kind: "permission",
      decision: { decision: "deny", reason: "Also add a README" },
    });
  });
});

describe("ExitPlanMode as an input request (pure)", () => {
  const policy = (permissionPrompts: "input-required" | "deny") => ({ permissionPrompts });

  it("is a plan_approval in a plan-mode task, even with permission prompts off", () => {
    for (const prompts of ["input-required", "deny"] as const) {
      const got = inputRequestFor(
        "ExitPlanMode",
        INPUT,
        { planApproval: { modeAfter: "acceptEdits" } },
        new DenialLedger(3),
        policy(prompts),
      );
      expect(got).toEqual({ kind: "request", request: plan });
    }
  });

  it("is a permission request as before in a task that did not ask for plan mode", () => {
    const got = inputRequestFor(
      "ExitPlanMode",
      INPUT,
      {},
      new DenialLedger(3),
      policy("input-required"),
    );
    expect(got.kind === "request" && got.request.kind).toBe("permission");
  });

  it("stops the task when the same plan comes back after a rejection", () => {
    const ledger = new DenialLedger(3);
    verdictFor(
      plan,
      { kind: "permission", decision: { decision: "deny", reason: "smaller" } },
      ledger,
    );
    const again = inputRequestFor(
      "ExitPlanMode",
      INPUT,
      { planApproval: { modeAfter: "acceptEdits" } },
      ledger,
      policy("input-required"),
    );
    expect(again).toMatchObject({
      kind: "verdict",
      verdict: { stop: TEXT.sameDenialAgain("ExitPlanMode") },
    });
  });

  it("shows the plan as Markdown text and as a data part", () => {
    expect(inputRequestContent(plan)).toEqual({
      text: PLAN,
      mediaType: "text/markdown",
      data: { kind: "plan_approval", plan: PLAN },
    });
    expect(inputRequestContent({ ...plan, plan: "" }).text).toBe(PLAN_TEXT.noPlan);
  });
});

describe("what an answer to a plan hands back to Claude (pure)", () => {
  it("an approval leaves plan mode for the mode after it, through the runtime's setMode", () => {
    const verdict = verdictFor(
      plan,
      { kind: "permission", decision: { decision: "allow" } },
      new DenialLedger(3),
    );
    expect(verdict).toEqual({
      result: {
        behavior: "allow",
        updatedInput: INPUT,
        updatedPermissions: [{ type: "setMode", mode: "acceptEdits", destination: "session" }],
      },
      stop: undefined,
    });
  });

  it("a rejection asks for a revised plan with the feedback, not the permission denial", () => {
    const verdict = verdictFor(
      plan,
      { kind: "permission", decision: { decision: "deny", reason: "Also add a README" } },
      new DenialLedger(3),
    );
    expect(verdict.result).toEqual({
      behavior: "deny",
      message: PLAN_TEXT.rejected("Also add a README"),
    });
    expect(PLAN_TEXT.rejected("Also add a README")).toContain("call ExitPlanMode again");
    expect(PLAN_TEXT.rejected(undefined)).not.toContain(DENIAL.byClient(undefined));
  });
});
