/**
 * A delivery's merge approval (`merge_approval`, docs/delivery.md) in the terminal client: read
 * from the status message, printed by `send` with what a yes merges and how to answer.
 */
import { describe, expect, it } from "vitest";
import { Role } from "@a2a-js/sdk";
import { inputRequestOf } from "../../../src/client/interaction.js";
import { dataPart, textPart } from "../../../src/client/message-parts.js";
import { describeRequest } from "../../../src/client/render-end.js";
import { makeColors } from "../../../src/client/colors.js";
import { KIND } from "../../../src/contract/kinds.js";
import { MERGE_TEXT, type MergeApprovalData } from "../../../src/contract/merge-approval.js";

const data = (approvedBy: "caller" | "operator"): MergeApprovalData => ({
  kind: KIND.mergeApproval,
  merge: {
    branch: "claude-a2a/fix-1",
    headCommit: "b".repeat(40),
    into: "main",
    intoCommit: "a".repeat(40),
    how: "fast-forward",
  },
  approvedBy,
  proof: {
    target: "merge",
    branch: "claude-a2a/fix-1",
    baseCommit: "a".repeat(40),
    headCommit: "b".repeat(40),
    files: [{ path: "src/date.ts", change: "modified" }],
    checks: [
      {
        round: 1,
        check: "test",
        command: "npm test",
        result: "passed",
        exitCode: 0,
        durationMs: 10,
        outputTail: "",
      },
    ],
    rounds: 1,
    review: [],
  },
});

const statusMessage = (d: MergeApprovalData) => ({
  messageId: "m",
  contextId: "",
  taskId: "",
  role: Role.ROLE_AGENT,
  parts: [textPart(MERGE_TEXT.summary(d.merge)), dataPart(d)],
  metadata: { kind: KIND.mergeApproval },
  extensions: [],
  referenceTaskIds: [],
});

describe("the terminal client's merge approval", () => {
  it("reads the merge a yes would make, the files and the checks", () => {
    const req = inputRequestOf(statusMessage(data("caller")));
    expect(req).toMatchObject({
      kind: "merge",
      text: MERGE_TEXT.summary(data("caller").merge),
      merge: { branch: "claude-a2a/fix-1", into: "main", how: "fast-forward" },
      approvedBy: "caller",
      files: ["src/date.ts"],
      checks: ["test passed (round 1)"],
    });
  });

  it("prints it with how to answer, and who may", () => {
    const c = makeColors(false);
    expect(describeRequest(inputRequestOf(statusMessage(data("caller"))), c)).toEqual([
      "! Merge approval: Merge `claude-a2a/fix-1` (bbbbbbbbbbbb) into `main` (aaaaaaaaaaaa), a fast-forward?",
      "    files:  src/date.ts",
      "    checks: test passed (round 1)",
      "    answer yes to merge, or no (with a reason) to keep the work on its branch",
    ]);
    expect(describeRequest(inputRequestOf(statusMessage(data("operator"))), c)).toContain(
      "    only an operator may answer",
    );
  });

  it("a merge_approval without its merge reads as plain text", () => {
    const message = {
      ...statusMessage(data("caller")),
      parts: [textPart("Merge?"), dataPart({ kind: KIND.mergeApproval })],
    };
    expect(inputRequestOf(message)).toEqual({ kind: "text", text: "Merge?" });
  });
});
