/**
 * Rewind and fork (docs/control.md) against the REAL Claude Code runtime and the scripted model,
 * through the official A2A client with the control extension's `A2A-Extensions` header: the
 * conversation Claude knows and the files go back to before a task, or a new context goes on
 * from the end of one, and both survive a restart.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type Task } from "@a2a-js/sdk";
import {
  a2a,
  messageText,
  reply,
  sendForTask,
  toolUse,
  userMessage,
  type A2AHarness,
  expectKnew,
} from "../support/harness/index.js";
import {
  git,
  initRepository,
  workingDir,
  expectRewoundToF1,
  writeFileRules,
} from "../support/harness/git.js";
import { exists } from "../support/a2a/workspaces.js";
import { isToolUse, withControl } from "../support/harness/control.js";

/** A Bash command that runs until the test creates `release` (no timing). */
const SLOW_BASH = "while [ ! -f release ]; do sleep 0.1; done; echo built";

/** "Build the release" runs SLOW_BASH; "Write fN" writes fN.txt; anything else is answered. */
const rules = [
  {
    name: "slow build",
    match: { lastUserText: /Build the release/, toolResult: false },
    reply: reply(toolUse("Bash", { command: SLOW_BASH, description: "Build" })),
  },
  ...writeFileRules,
];

const control = (metadata: Record<string, unknown>, prompt: string, contextId: string) => ({
  ...userMessage(prompt, { contextId }),
  metadata,
});

const completed = (task: Task) =>
  expect(task.status?.state, messageText(task.status?.message)).toBe(
    TaskState.TASK_STATE_COMPLETED,
  );

const worktreeMeta = (task: Task) =>
  task.metadata?.worktree as
    | { branch?: string; commit?: string; rewound?: { keptRef: string; keptCommit: string } }
    | undefined;

/** Our server on a git repository under `claude.isolation: "worktree"`, its client fetching so. */
const inWorktree = (fetchImpl?: typeof fetch) =>
  a2a({
    rules,
    ...(fetchImpl && { fetchImpl }),
    config: { claude: { isolation: "worktree" } },
    beforeStart: initRepository,
  });

/** Sends `prompt` in `contextId`; its task must complete. */
async function done(h: A2AHarness, prompt: string, contextId: string): Promise<Task> {
  const task = await h.send(prompt, { contextId });
  completed(task);
  return task;
}

async function threeTasks(h: A2AHarness, contextId: string): Promise<Task[]> {
  const tasks: Task[] = [];
  for (const n of [1, 2, 3]) {
    tasks.push(await done(h, `Write f${n}`, contextId));
  }
  return tasks;
}

describe('rewind and fork under claude.isolation: "worktree" (real runtime)', () => {
  it("a dry run changes nothing and answers the diff; a rewind to task 2 leaves task 1's file, Claude forgets tasks 2 and 3, the later commits stay on the named ref; a restart resumes the rewound conversation", async () => {
    const h = await inWorktree(withControl);
    const [t1, t2, t3] = (await threeTasks(h, "rw1")) as [Task, Task, Task];
    const branch = worktreeMeta(t3)?.branch ?? "";
    const first = h.bench.model.requests[0]?.request;
    if (first === undefined) throw new Error("no model request");
    const cwd = workingDir(first);
    expect(await exists(join(cwd, "f3.txt"))).toBe(true);

    // Dry run: the diff the rewind would apply, and nothing changes.
    const headBefore = git(cwd, "rev-parse", "HEAD").trim();
    const requestsBefore = h.bench.model.requests.length;
    const dry = await sendForTask(
      h.client,
      control({ rewindTo: t2.id, dryRun: true }, "Write f4", "rw1"),
    );
    completed(dry);
    const part = dry.artifacts.find((a) => a.metadata?.kind === "diff")?.parts[0];
    expect(part?.mediaType).toBe("text/x-diff");
    const diff = part?.content?.$case === "raw" ? Buffer.from(part.content.value).toString() : "";
    expect(diff).toContain("f2.txt");
    expect(diff).toContain("f3.txt");
    expect(diff).not.toContain("f1.txt");
    expect(git(cwd, "rev-parse", "HEAD").trim()).toBe(headBefore);
    expect(await exists(join(cwd, "f3.txt"))).toBe(true);
    expect(h.bench.model.requests.length).toBe(requestsBefore);

    // The rewind.
    const rewound = await sendForTask(h.client, control({ rewindTo: t2.id }, "Write f4", "rw1"));
    completed(rewound);
    await expectRewoundToF1(h, cwd);
    // The later commits: reachable at the ref the task names.
    const kept = worktreeMeta(rewound)?.rewound;
    expect(kept?.keptRef).toMatch(/^refs\/heads\//);
    expect(git(cwd, "rev-parse", kept?.keptRef ?? "").trim()).toBe(worktreeMeta(t3)?.commit);
    expect(git(cwd, "show", `${kept?.keptRef ?? ""}:f3.txt`)).toBe("f3\n");
    expect(git(cwd, "rev-parse", `${branch}~1`).trim()).toBe(worktreeMeta(t1)?.commit);
    expect(rewound.history.map((m) => String(m.metadata?.kind))).toContain("rewound");

    // After a restart the conversation is the rewound one.
    await h.restart();
    await done(h, "What do you know", "rw1");
    expectKnew(h, "What do you know", ["Write f1", "Write f4"], ["Write f2"]);
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("forking task 2 gives a new conversation that knows tasks 1-2 and not 3, on a branch at task 2's commit; the original still sees task 3; both resume after a restart", async () => {
    const h = await inWorktree(withControl);
    const [, t2] = (await threeTasks(h, "fk1")) as [Task, Task, Task];
    const forked = await sendForTask(h.client, control({ forkOf: t2.id }, "Write f5", "fk2"));
    completed(forked);
    expectKnew(h, "Write f5", ["Write f1", "Write f2"], ["Write f3"]);
    const mark = forked.history.find((m) => m.metadata?.kind === "forked");
    expect(mark?.referenceTaskIds).toEqual([t2.id]);
    expect((forked.metadata?.control as { forkOf?: string } | undefined)?.forkOf).toBe(t2.id);
    // Its branch starts at task 2's commit.
    const forkBranch = worktreeMeta(forked)?.branch ?? "";
    const repo = h.bench.sandbox.cwd;
    expect(git(repo, "rev-parse", `${forkBranch}~1`).trim()).toBe(worktreeMeta(t2)?.commit);
    expect(git(repo, "ls-tree", "--name-only", forkBranch).split("\n")).toEqual(
      expect.arrayContaining(["f1.txt", "f2.txt", "f5.txt"]),
    );
    expect(git(repo, "ls-tree", "--name-only", forkBranch)).not.toContain("f3.txt");
    // The fork works in a repository of its own, with its own branch only (no ref of its
    // source's); task 2's commit is there (the anonymous caller's commits are published to the
    // workspace's store, which every repository borrows; hostile-callers-git covers two callers).
    const forkTree = join(repo, ".claude/worktrees", forkBranch.slice("claude-a2a/".length));
    expect(git(forkTree, "rev-parse", "--git-common-dir").trim()).toBe(".git");
    expect(git(forkTree, "cat-file", "-t", worktreeMeta(t2)?.commit ?? "").trim()).toBe("commit");
    expect(git(forkTree, "for-each-ref", "--format=%(refname)")).toBe(`refs/heads/${forkBranch}\n`);

    // The original goes on, with task 3.
    await done(h, "Original next", "fk1");
    expectKnew(h, "Original next", ["Write f3"], ["Write f5"]);

    await h.restart();
    await done(h, "Fork after restart", "fk2");
    expectKnew(h, "Fork after restart", ["Write f2", "Write f5"], ["Write f3"]);
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("refuses a rewind without the header, to another context's task, and a fork into a context with tasks", async () => {
    const h = await inWorktree();
    const t1 = await done(h, "Write f1", "rf1");
    // Request errors before any task exists (a2a-control-refusals.test.ts has the rest).
    await expect(sendForTask(h.client, control({ rewindTo: t1.id }, "x", "rf1"))).rejects.toThrow(
      "A2A-Extensions",
    );
    const client = await h.connect({ fetchImpl: withControl });
    await expect(sendForTask(client, control({ rewindTo: t1.id }, "x", "rf2"))).rejects.toThrow(
      "is not in this context",
    );
    await expect(sendForTask(client, control({ forkOf: t1.id }, "x", "rf1"))).rejects.toThrow(
      "new contextId",
    );
  });
});

describe("rewind while the conversation is busy (real runtime)", () => {
  it("is refused with a clear error while another task of the conversation runs, and changes nothing", async () => {
    const h = await a2a({
      rules,
      fetchImpl: withControl,
      config: { claude: { allowedTools: ["Bash"] } },
    });
    const cwd = h.bench.sandbox.cwd;
    const t1 = await done(h, "Write f1", "busy");
    const building = h.watch("Build the release", { contextId: "busy" });
    await building.first(isToolUse);
    await expect(
      sendForTask(h.client, control({ rewindTo: t1.id }, "Write f2", "busy")),
    ).rejects.toThrow("while another task of this conversation is running");
    expect(await exists(join(cwd, "f1.txt"))).toBe(true);
    await writeFile(join(cwd, "release"), "");
    await building.done;
    expect(await exists(join(cwd, "f2.txt"))).toBe(false);
  });
});

describe("rewind without worktrees: Claude Code's file checkpoints (real runtime)", () => {
  it("a file written by Write in a later task is restored (removed); the dry run lists it and changes nothing", async () => {
    const h = await a2a({ rules, fetchImpl: withControl });
    const cwd = h.bench.sandbox.cwd;
    await done(h, "Write f1", "cp1");
    const t2 = await done(h, "Write f2", "cp1");
    expect(await exists(join(cwd, "f2.txt"))).toBe(true);

    const dry = await sendForTask(
      h.client,
      control({ rewindTo: t2.id, dryRun: true }, "Write f3", "cp1"),
    );
    completed(dry);
    expect(JSON.stringify(dry.artifacts)).toContain("f2.txt");
    expect(await exists(join(cwd, "f2.txt"))).toBe(true);

    const rewound = await sendForTask(h.client, control({ rewindTo: t2.id }, "Write f3", "cp1"));
    completed(rewound);
    expect(await exists(join(cwd, "f1.txt"))).toBe(true);
    expect(await exists(join(cwd, "f2.txt"))).toBe(false);
    expect(await exists(join(cwd, "f3.txt"))).toBe(true);
    expectKnew(h, "Write f3", ["Write f1"], ["Write f2"]);
  });
});
