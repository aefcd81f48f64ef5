import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { ConversationKey } from "../../../../src/identity/conversation.js";
import { TaskWorktree } from "../../../../src/a2a/task/task-worktree.js";
import type { TaskIsolation } from "../../../../src/a2a/task/environment.js";
import type { TaskCommit } from "../../../../src/workspace/worktrees/commit.js";
import { DIFF_MEDIA_TYPE } from "../../../../src/contract/worktree.js";

const logger = pino({ level: "silent" });
const conversation = { key: "token:ci|ctx" as ConversationKey, contextId: "ctx" };
const made: TaskCommit = {
  branch: "claude-a2a/ctx-0123456789",
  baseCommit: "a".repeat(40),
  commit: "b".repeat(40),
  files: [{ path: "x.txt", change: "modified" }],
  diff: "diff --git a/x.txt b/x.txt\n-1\n+2\n",
};

/** An isolation whose commits settle when the test says. */
function held() {
  const calls: { taskId: string; state: string }[] = [];
  let settle!: (c: TaskCommit | undefined | Error) => void;
  const worktrees: TaskIsolation = {
    prepare: () => Promise.resolve("/w"),
    finish: (_c, taskId, state) => {
      calls.push({ taskId, state });
      return new Promise((resolve, reject) => {
        settle = (c) => (c instanceof Error ? reject(c) : resolve(c));
      });
    },
  };
  return { calls, worktrees, settle: (c: TaskCommit | undefined | Error) => settle(c) };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

/** Task `taskId`'s worktree of the conversation, over `iso`'s worktrees, diffs cut at `maxDiffBytes`. */
const worktreeOf = (iso: { worktrees: TaskIsolation }, taskId: string, maxDiffBytes: number) =>
  new TaskWorktree({ worktrees: iso.worktrees, maxDiffBytes }, conversation, taskId, logger);

describe("TaskWorktree", () => {
  it("holds a completion until its commit is made, once; then gives the diff and the metadata", async () => {
    const iso = held();
    const w = worktreeOf(iso, "t1", 1000);
    let completions = 0;
    const complete = () => {
      if (!w.holdCompletion(complete)) completions++;
    };
    complete();
    complete(); // a second attempt while committing waits for the same commit
    expect(iso.calls).toEqual([{ taskId: "t1", state: "completed" }]);
    expect(completions).toBe(0);
    iso.settle(made);
    await flush();
    expect(completions).toBe(1);
    expect(w.metadata()).toEqual({
      worktree: {
        branch: made.branch,
        baseCommit: made.baseCommit,
        commit: made.commit,
        files: made.files,
      },
    });
    const diff = w.diffArtifact();
    expect(diff?.artifactId).toBe("diff");
    expect(diff?.parts[0]?.mediaType).toBe(DIFF_MEDIA_TYPE);
    expect(diff?.metadata).toMatchObject({ kind: "diff", commit: made.commit, size: 33 });
    // Ended otherwise afterwards: nothing more is committed.
    w.afterEnd("failed");
    expect(iso.calls).toHaveLength(1);
  });

  it("a failed commit lets the task complete, saying why in its metadata and text; a big diff becomes a note", async () => {
    const iso = held();
    const w = worktreeOf(iso, "t1", 10);
    let done = false;
    const complete = () => {
      if (!w.holdCompletion(complete)) done = true;
    };
    complete();
    iso.settle(new Error("index.lock exists"));
    await flush();
    expect(done).toBe(true);
    const said =
      "The task's changes could not be committed: index.lock exists. They stay in the conversation's worktree; its next task's commit takes them.";
    expect(w.metadata()).toEqual({ worktree: { error: said } });
    expect(w.failure()).toBe(said);
    expect(w.diffArtifact()).toBeUndefined();

    const big = held();
    const w2 = worktreeOf(big, "t2", 10);
    w2.afterEnd("canceled");
    expect(big.calls).toEqual([{ taskId: "t2", state: "canceled" }]);
    big.settle(made);
    await flush();
    const note = w2.diffArtifact();
    expect(note?.metadata?.truncated).toBe(true);
    expect(note?.parts[0]?.content?.$case).toBe("text");
  });
});
