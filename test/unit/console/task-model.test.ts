import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { applyEvent, applySnapshot, modelOf } from "../../../console/task-model.js";
import { branchOf, commitOf, costOf, originOf } from "../../../console/format.js";
import { status } from "../../../src/contract/statuses.js";
import { artifact, artifactUpdate, newTask, textPart } from "../../../src/contract/messages.js";
import { proofArtifact, proofOfWork } from "../../../src/delivery/proof.js";
import { ev, fileEvent, firstMessage, ref } from "./support/task-events.js";

const first = firstMessage("Write it");
/** a.txt, as a Write leaves it. */
const written = (content: string, operation: "created" | "modified") =>
  fileEvent("a.txt", content, operation, "Write");

describe("the console's task model", () => {
  it("keeps a delivery's proof of work for its own panel, read from its JSON, not as the task's text", () => {
    const model = modelOf(newTask(ref, first));
    const commit = { branch: "claude-a2a/c-1", baseCommit: "a", commit: "b", files: [] };
    const proof = proofArtifact(proofOfWork("branch", commit, []));
    applyEvent(
      model,
      ev({
        $case: "artifactUpdate",
        value: artifactUpdate(ref, proof, { append: false, lastChunk: true }),
      }),
    );
    expect(model.entries.some((e) => e.type === "text")).toBe(false);
    expect(model.texts.has("proof-of-work")).toBe(false);
    expect(model.proof?.structured).toBe(true);
    expect(model.proof?.facts.map((f) => f.key)).toEqual([
      "target",
      "branch",
      "baseCommit",
      "headCommit",
      "rounds",
    ]);
    expect(model.proof?.markdown).toContain("# Proof of work");
    // A task read as stored (reopened without kept events) has it too.
    expect(modelOf({ ...newTask(ref, first), artifacts: [proof] }).proof).toEqual(model.proof);
  });

  it("follows a stream: the user message, a tool call, streamed text, a file written twice, the result", () => {
    const model = modelOf(newTask(ref, first));
    expect(model.entries).toEqual([{ type: "message", role: "user", text: "Write it" }]);
    const text = (parts: string, append: boolean) =>
      ev({
        $case: "artifactUpdate",
        value: artifactUpdate(
          ref,
          artifact("response-r1", "response", [textPart(parts)], { kind: "assistant_text" }),
          { append, lastChunk: false },
        ),
      });
    applyEvent(model, ev({ $case: "statusUpdate", value: status.toolUse(ref, "Write", "tu1") }));
    applyEvent(model, text("Hel", false));
    applyEvent(model, text("lo", true));
    expect(model.texts.get("response-r1")).toBe("Hello");
    applyEvent(model, written("a\n", "created"));
    applyEvent(model, written("a\nb\n", "modified"));
    applyEvent(
      model,
      ev({
        $case: "statusUpdate",
        value: status.toolResult(ref, "Write", "tu1", false, {
          text: "File created",
          bytes: 12,
          truncated: false,
        }),
      }),
    );
    applyEvent(model, ev({ $case: "statusUpdate", value: status.result(ref, "Hello") }));

    expect(
      model.entries.map((e) =>
        e.type === "status"
          ? `status:${e.kind}:${e.toolName ?? e.text}`
          : e.type === "tool"
            ? `tool:${e.toolName}`
            : e.type,
      ),
    ).toEqual(["message", "tool:Write", "text", "file", "file", "status:result:Hello"]);
    // The call's output is folded into the call, not an entry of its own; the log keeps the kinds.
    expect(model.tools.get("tu1")).toEqual({
      output: "File created",
      isError: false,
      truncated: false,
      bytes: 12,
    });
    expect(model.log.map((l) => l.kind)).toEqual(["tool_use", "tool_result", "result"]);
    // The second version is diffed against the first the page saw.
    expect(model.files.get("file:a.txt")).toMatchObject({
      content: "a\nb\n",
      previous: "a\n",
      operation: "modified",
    });
    expect(model.task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
  });

  it("a snapshot adds the user messages it has not shown and reads a text/x-diff artifact", () => {
    const model = modelOf(newTask(ref, first));
    const answer = { ...first, messageId: "m2", parts: [textPart("blue")] };
    const diff = artifact(
      "diff",
      "branch.diff",
      [{ ...textPart("+x\n"), mediaType: "text/x-diff" }],
      {},
    );
    applySnapshot(model, {
      ...newTask(ref, first),
      history: [first, answer],
      artifacts: [diff],
      metadata: {
        worktree: { branch: "claude/t1" },
        usage: {
          costUsd: 0.0012,
          inputTokens: 1,
          outputTokens: 1,
          cacheReadTokens: 0,
          cacheCreationTokens: 0,
        },
      },
    });
    expect(model.entries.filter((e) => e.type === "message")).toHaveLength(2);
    expect(model.diffs.get("diff")).toEqual({ name: "branch.diff", text: "+x\n" });
    expect(branchOf(model.task)).toBe("claude/t1");
    expect(commitOf(model.task)).toBeUndefined();
    expect(
      commitOf({
        metadata: {
          worktree: {
            branch: "b",
            commit: "0123456789abcdef",
            files: [{ path: "a", change: "added" }],
          },
        },
      }),
    ).toBe("0123456789 (1 file)");
    expect(commitOf({ metadata: { worktree: { error: "The task's changes could not…" } } })).toBe(
      "none: The task's changes could not…",
    );
    expect(costOf(model.task)).toBe("$0.0012");
    expect(originOf(model.task)).toBe("foreground");
    expect(originOf({ metadata: { origin: "autonomous" } })).toBe("autonomous");
  });
});
