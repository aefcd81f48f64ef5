import { describe, expect, it } from "vitest";
import { Role, TaskState, type Message, type Task } from "@a2a-js/sdk";
import {
  approverNote,
  mergeAnswer,
  mergeAskOf,
  viewerIsOperator,
} from "../../../console/merge-approval.js";
import { proofViewOf, shownOf } from "../../../console/proof-model.js";
import { slotOf } from "../../../console/prompt-slot.js";
import { userWords } from "../../../console/answers.js";
import type { CheckRun } from "../../../src/contract/delivery.js";
import { KIND } from "../../../src/contract/kinds.js";
import {
  MERGE_SUMMARY_MEDIA_TYPE,
  MERGE_TEXT,
  type MergeApprovalData,
} from "../../../src/contract/merge-approval.js";
import { newTask } from "../../../src/contract/messages.js";
import { status } from "../../../src/contract/statuses.js";
import { proofArtifact, proofOfWork } from "../../../src/delivery/proof.js";
import { firstMessage, ref } from "./support/task-events.js";

const checks: CheckRun[] = [
  {
    round: 1,
    check: "test",
    command: "npm test",
    result: "failed",
    exitCode: 1,
    durationMs: 900,
    outputTail: "1 failing",
  },
  {
    round: 2,
    check: "test",
    command: "npm test",
    result: "passed",
    exitCode: 0,
    durationMs: 800,
    outputTail: "",
  },
];
const commit = {
  branch: "claude-a2a/c-1",
  baseCommit: "a".repeat(40),
  commit: "b".repeat(40),
  files: [{ path: "fixed.txt", change: "added" as const }],
};
const proof = proofOfWork("merge", commit, checks);

describe("the proof of work panel's model", () => {
  it("reads the JSON: facts, files, every check; steps' fields generically, a URL as a link", () => {
    const view = proofViewOf(
      proofArtifact({
        ...proof,
        push: { remote: "origin", commit: "b".repeat(40), durationMs: 1500 },
        pullRequest: { number: 7, url: "https://forge.example/pr/7", updated: false },
        somethingLater: ["x", "y"],
      } as typeof proof),
    );
    expect(view.structured).toBe(true);
    expect(view.facts.map((f) => [f.label, f.value])).toEqual([
      ["Target", { kind: "text", text: "merge" }],
      ["Branch", { kind: "text", text: "claude-a2a/c-1" }],
      ["Base commit", { kind: "text", text: "a".repeat(40) }],
      ["Head commit", { kind: "text", text: "b".repeat(40) }],
      ["Rounds", { kind: "text", text: "2" }],
    ]);
    expect(view.files).toEqual([{ path: "fixed.txt", change: "added" }]);
    expect(view.checks).toEqual(checks);
    // The empty review (none ran) is not shown; every other field is, in its order.
    expect(view.extras.map((f) => f.label)).toEqual(["Push", "Pull request", "Something later"]);
    expect(view.extras[1]?.value).toEqual({
      kind: "fields",
      fields: [
        { key: "number", label: "Number", value: { kind: "text", text: "7" } },
        {
          key: "url",
          label: "URL",
          value: {
            kind: "link",
            href: "https://forge.example/pr/7",
            text: "https://forge.example/pr/7",
          },
        },
        { key: "updated", label: "Updated", value: { kind: "text", text: "no" } },
      ],
    });
    expect(shownOf(1500, "durationMs")).toEqual({ kind: "text", text: "2 s" });
    // Only http(s) is a link.
    expect(shownOf("javascript:alert(1)")).toEqual({ kind: "text", text: "javascript:alert(1)" });
  });

  it("shows a review with findings, and falls back to the Markdown without readable JSON", () => {
    const reviewed = proofViewOf(
      proofArtifact({ ...proof, review: [{ severity: "high", file: "a.ts", line: 3 }] } as never),
    );
    expect(reviewed.extras.map((f) => f.key)).toEqual(["review"]);
    const art = proofArtifact(proof);
    const markdownOnly = proofViewOf({
      ...art,
      parts: art.parts.filter((p) => p.content?.$case === "text"),
    });
    expect(markdownOnly.structured).toBe(false);
    expect(markdownOnly.markdown).toContain("### Round 2: test, passed");
  });
});

const mergeData = (approvedBy: "caller" | "operator"): MergeApprovalData => ({
  kind: KIND.mergeApproval,
  merge: {
    branch: commit.branch,
    headCommit: commit.commit,
    into: "main",
    intoCommit: "c".repeat(40),
    how: "fast-forward",
  },
  approvedBy,
  proof,
});

const asking = (approvedBy: "caller" | "operator"): Task => {
  const data = mergeData(approvedBy);
  const event = status.inputRequired(ref, {
    text: MERGE_TEXT.summary(data.merge),
    mediaType: MERGE_SUMMARY_MEDIA_TYPE,
    data,
  });
  return { ...newTask(ref, firstMessage("Do the work")), status: event.status };
};

describe("a merge to approve", () => {
  it("is its own slot: the summary, the merge, who may approve, the proof", () => {
    const slot = slotOf(asking("caller"), false, undefined);
    if (slot.kind !== "merge") throw new Error(`slot ${slot.kind}`);
    expect(slot.ask.summary).toBe(
      `Merge \`claude-a2a/c-1\` (${"b".repeat(12)}) into \`main\` (${"c".repeat(12)}), a fast-forward?`,
    );
    expect(slot.ask.merge.map((f) => f.label)).toEqual([
      "Branch",
      "Head commit",
      "Into",
      "Into commit",
      "How",
    ]);
    expect(slot.ask.approvedBy).toBe("caller");
    expect(slot.ask.proof?.checks).toHaveLength(2);
    // The viewer's role is part of the key: the form is built again once it is known.
    expect(slotOf(asking("caller"), false, undefined, true).key).not.toBe(slot.key);
    expect(slot.operator).toBe(false);
  });

  it("is not a merge for any other prompt", () => {
    const plain: Message = {
      messageId: "m",
      contextId: "c1",
      taskId: "t1",
      role: Role.ROLE_AGENT,
      parts: [
        {
          content: { $case: "text", value: "Which one?" },
          metadata: undefined,
          filename: "",
          mediaType: "",
        },
      ],
      metadata: { kind: KIND.askUserQuestion },
      extensions: [],
      referenceTaskIds: [],
    };
    expect(mergeAskOf(plain)).toBeUndefined();
    const task = { ...asking("caller") };
    expect(
      slotOf(
        { ...task, status: { ...task.status!, state: TaskState.TASK_STATE_WORKING } },
        false,
        undefined,
      ).kind,
    ).toBe("none");
  });

  it("Approve sends a permission allow; Reject a deny with its reason, or none", () => {
    const approve = mergeAnswer("allow", "ignored");
    expect(approve.parts).toEqual([
      expect.objectContaining({
        content: { $case: "data", value: { kind: "permission_response", decision: "allow" } },
      }),
    ]);
    const reject = mergeAnswer("deny", "  not before the release  ");
    expect(reject.parts[0]?.content).toEqual({
      $case: "data",
      value: { kind: "permission_response", decision: "deny", reason: "not before the release" },
    });
    expect(mergeAnswer("deny", " ").parts[0]?.content).toEqual({
      $case: "data",
      value: { kind: "permission_response", decision: "deny" },
    });
    // The words shown are those a reload reads back from the history: no echo shown twice.
    for (const a of [approve, reject, mergeAnswer("deny")]) {
      expect(userWords({ ...firstMessage(""), parts: a.parts })).toBe(a.shown);
    }
  });

  it("says who may approve where only an operator may and the viewer is not one", () => {
    const caller = mergeAskOf(asking("caller").status?.message)!;
    const operatorOnly = mergeAskOf(asking("operator").status?.message)!;
    expect(approverNote(caller, false)).toBeUndefined();
    expect(approverNote(operatorOnly, true)).toBeUndefined();
    expect(approverNote(operatorOnly, false)).toMatch(/^Only an operator may approve this merge/);
    // An operator's reads name each task's owner; nobody else's do.
    expect(viewerIsOperator([{ metadata: { owner: "token:ci" } }])).toBe(true);
    expect(viewerIsOperator([{ metadata: {} }, { metadata: undefined }])).toBe(false);
  });
});
