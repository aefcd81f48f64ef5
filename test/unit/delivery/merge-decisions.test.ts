import { describe, expect, it } from "vitest";
import type { Message } from "@a2a-js/sdk";
import { parseAnswer, inputRequestContent } from "../../../src/a2a/interaction/answers.js";
import { verdictFor } from "../../../src/a2a/task/input-requests.js";
import { DenialLedger } from "../../../src/a2a/interaction/loop-protection.js";
import {
  answerRefusal,
  approvalAnswer,
  mergeApprovalRequest,
} from "../../../src/a2a/task/task-merge.js";
import { KIND } from "../../../src/contract/kinds.js";
import { MERGE_TEXT, type MergeApprovalData } from "../../../src/contract/merge-approval.js";
import { mayAnswerMerge } from "../../../src/delivery/merge/approval.js";
import { mergeMove } from "../../../src/delivery/merge/merge-plan.js";

const DATA = (approvedBy: "caller" | "operator" = "caller"): MergeApprovalData => ({
  kind: KIND.mergeApproval,
  merge: {
    branch: "claude-a2a/fix-1",
    headCommit: "a".repeat(40),
    into: "main",
    intoCommit: "b".repeat(40),
    how: "fast-forward",
  },
  approvedBy,
  proof: {
    target: "merge",
    branch: "claude-a2a/fix-1",
    baseCommit: "b".repeat(40),
    headCommit: "a".repeat(40),
    files: [],
    checks: [],
    rounds: 1,
    review: [],
  },
});

const said = (text: string): Pick<Message, "parts"> => ({
  parts: [
    { content: { $case: "text", value: text }, mediaType: "", filename: "", metadata: undefined },
  ],
});
const structured = (value: unknown): Pick<Message, "parts"> => ({
  parts: [{ content: { $case: "data", value }, mediaType: "", filename: "", metadata: undefined }],
});

/** The answer as the merge step reads it: through the verdict, as a live prompt settles. */
const read = (message: Pick<Message, "parts">, operator?: string) => {
  const request = mergeApprovalRequest(DATA());
  const verdict = verdictFor(request, parseAnswer(request, message), new DenialLedger(3));
  return approvalAnswer(verdict.result, operator, false);
};

describe("merge on approval: how it merges (mergeMove)", () => {
  it.each([
    ["unset, base not moved", undefined, false, true, "fast-forward"],
    ["unset, base moved", undefined, false, false, "merge-commit"],
    ["fast-forward, base not moved", "fast-forward", false, true, "fast-forward"],
    [
      "fast-forward, base moved: the branch takes the base in first",
      "fast-forward",
      false,
      false,
      "rebase",
    ],
    [
      "merge-commit, base not moved: a merge commit all the same",
      "merge-commit",
      false,
      true,
      "merge-commit",
    ],
    ["merge-commit, base moved", "merge-commit", false, false, "merge-commit"],
    ["the base holds the head already", undefined, true, true, "up_to_date"],
    [
      "the base holds the head already, merge-commit asked",
      "merge-commit",
      true,
      false,
      "up_to_date",
    ],
  ] as const)("%s", (_name, how, headInBase, baseInHead, move) => {
    expect(mergeMove(how, { headInBase, baseInHead })).toBe(move);
  });
});

describe("merge on approval: the answer", () => {
  it.each([
    ["yes", { kind: "yes", by: "caller" }],
    ["oui, vas-y", { kind: "yes", by: "caller" }],
    ["no", { kind: "no", reason: MERGE_TEXT.noReason, by: "caller" }],
    ["no, not this week", { kind: "no", reason: "no, not this week", by: "caller" }],
    ["yes?", { kind: "no", reason: "the reply was not a clear yes or no", by: "caller" }],
    ["maybe later", { kind: "no", reason: "the reply was not a clear yes or no", by: "caller" }],
    ["merge it", { kind: "no", reason: "the reply was not a clear yes or no", by: "caller" }],
  ])("%j reads as %j", (text, answer) => {
    expect(read(said(text))).toEqual(answer);
  });

  it("a permission_response: allow merges, deny declines with its reason", () => {
    expect(read(structured({ kind: "permission_response", decision: "allow" }), "ops")).toEqual({
      kind: "yes",
      by: "ops",
    });
    expect(
      read(structured({ kind: "permission_response", decision: "deny", reason: "not yet" })),
    ).toEqual({ kind: "no", reason: "not yet", by: "caller" });
  });

  it("a task that ended first got no answer", () => {
    expect(approvalAnswer({ behavior: "deny", message: "stopped" }, undefined, true)).toEqual({
      kind: "gone",
    });
  });

  it("the prompt: the summary as Markdown, the data part as the contract says", () => {
    const content = inputRequestContent(mergeApprovalRequest(DATA()));
    expect(content.text).toBe(
      "Merge `claude-a2a/fix-1` (aaaaaaaaaaaa) into `main` (bbbbbbbbbbbb), a fast-forward?",
    );
    expect(content.mediaType).toBe("text/markdown");
    expect(content.data).toEqual(DATA());
  });
});

describe("merge on approval: who may answer", () => {
  it.each([
    ["caller", undefined, true],
    ["caller", "ops", true],
    ["operator", undefined, false],
    ["operator", "ops", true],
  ] as const)("approvedBy %s, operator %s: %s", (approvedBy, operator, may) => {
    expect(mayAnswerMerge(approvedBy, operator)).toBe(may);
    const refusal = answerRefusal(mergeApprovalRequest(DATA(approvedBy)), operator);
    expect(refusal).toBe(may ? undefined : MERGE_TEXT.operatorOnly);
  });

  it("any other prompt is anyone's who may answer the task", () => {
    const permission = {
      kind: "permission",
      toolName: "Bash",
      input: {},
      title: undefined,
      decisionReason: undefined,
    } as const;
    expect(answerRefusal(permission, undefined)).toBeUndefined();
  });
});
