/**
 * Merge on approval (docs/delivery.md "Merge on approval") against the REAL Claude Code runtime
 * with a scripted model, real git and a real check, through the official A2A client: a green
 * delivery with the target `merge` asks (`merge_approval`); a yes merges into the workspace's
 * branch (its checkout moved along, clean), a no keeps it as it was; under `approvedBy:
 * "operator"` the caller's yes is refused and an operator's merges; a base that moved and
 * conflicts gives a rework turn that ends merged; a merge commit is authored as configured; an
 * unclean checkout of the base fails the merge, touching nothing; `send --deliver merge` in the
 * terminal client shows the ask and `send --task <id> yes` answers it.
 */
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type Message, type StreamResponse } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import type { ConfigInput } from "../../src/config/schema.js";
import type { MergeApprovalData } from "../../src/contract/merge-approval.js";
import {
  a2a,
  getTask,
  idsOf,
  lastStatus,
  reply,
  sendRequest,
  streamMessage,
  terminal,
  text,
  tokenEntries,
  toolUse,
  userMessage,
  watch,
  type A2AHarness,
  type ParsedRequest,
  type Rule,
} from "../support/harness/index.js";
import { withControl } from "../support/harness/control.js";
import { git, initRepository, workingDir } from "../support/harness/git.js";

const TIMEOUT = 180_000;

const WORK_PRESENT = {
  name: "present",
  command: "test -f work.txt || { echo 'work.txt is missing'; exit 1; }",
  timeoutSeconds: 120,
};

const configWith = (delivery: Record<string, unknown> = {}, server: ConfigInput["server"] = {}) =>
  ({
    server,
    claude: {
      isolation: "worktree",
      delivery: {
        checks: [WORK_PRESENT],
        allowedTargets: ["branch", "merge"],
        maxRounds: 2,
        ...delivery,
      },
    },
  }) satisfies ConfigInput;

/**
 * The task writes work.txt; `beforeWrite` runs first (the base moves there). Told of a conflict,
 * Claude reads work.txt and writes both sides into it.
 */
const rules = (beforeWrite: () => void = () => undefined): Rule[] => [
  {
    name: "rework: read",
    match: { lastUserText: /it conflicts in: work\.txt/, toolResult: false },
    reply: (req: ParsedRequest) =>
      reply(toolUse("Read", { file_path: join(workingDir(req), "work.txt") })),
  },
  {
    name: "rework: write",
    match: { toolResult: /<<<<<<</ },
    reply: (req: ParsedRequest) =>
      reply(
        toolUse("Write", {
          file_path: join(workingDir(req), "work.txt"),
          content: "work and other\n",
        }),
      ),
  },
  { name: "resolved", match: { toolResult: /updated/ }, reply: reply(text("Resolved.")) },
  {
    name: "first turn",
    match: { lastUserText: /Do the work/, toolResult: false },
    reply: (req: ParsedRequest) => {
      beforeWrite();
      return reply(
        toolUse("Write", { file_path: join(workingDir(req), "work.txt"), content: "work\n" }),
      );
    },
  },
  { name: "written", match: { toolResult: /created successfully/ }, reply: reply(text("Done.")) },
];

const deliverMerge: Message = { ...userMessage("Do the work"), metadata: { deliver: "merge" } };

const askMerge = (client: Client) =>
  watch(client.sendMessageStream(sendRequest(deliverMerge))).done;

const approvalOf = (events: readonly StreamResponse[]) => {
  const last = lastStatus(events);
  expect(last).toMatchObject({
    state: TaskState.TASK_STATE_INPUT_REQUIRED,
    kind: "merge_approval",
  });
  return last.data as unknown as MergeApprovalData;
};

const deliveryOf = async (client: Client, taskId: string) =>
  (await getTask(client, taskId)).metadata?.delivery as Record<string, unknown> | undefined;

const start = (o: { delivery?: Record<string, unknown>; server?: ConfigInput["server"] } = {}) =>
  a2a({
    fetchImpl: withControl,
    config: configWith(o.delivery, o.server),
    rules: rules(),
    beforeStart: (cwd) => initRepository(cwd),
  });

const workspaceOf = (h: A2AHarness) => h.bench.sandbox.cwd;

describe("delivery: merge on approval (real runtime, real git)", () => {
  it(
    "asks with merge_approval after green checks; a yes fast-forwards main, whose clean checkout holds the work",
    async () => {
      const h = await start();
      const repo = workspaceOf(h);
      const before = git(repo, "rev-parse", "main").trim();
      const asked = await askMerge(h.client);
      const approval = approvalOf(asked);
      expect(approval.merge).toMatchObject({
        into: "main",
        intoCommit: before,
        how: "fast-forward",
      });
      expect(approval.approvedBy).toBe("caller");
      expect(approval.proof.checks.map((c) => [c.check, c.result])).toEqual([
        ["present", "passed"],
      ]);
      // The summary is the text part, as Markdown.
      const message = asked
        .flatMap((e) =>
          e.payload?.$case === "statusUpdate" ? [e.payload.value.status?.message] : [],
        )
        .at(-1);
      expect(message?.parts[0]?.mediaType).toBe("text/markdown");
      expect(lastStatus(asked).text).toMatch(
        /^Merge `claude-a2a\/.+` \(\w{12}\) into `main` \(\w{12}\), a fast-forward\?$/,
      );
      // Nothing moved yet.
      expect(git(repo, "rev-parse", "main").trim()).toBe(before);

      const { taskId, contextId } = idsOf(asked);
      const answered = await streamMessage(h.client, "yes", { taskId, contextId });
      expect(lastStatus(answered).state).toBe(TaskState.TASK_STATE_COMPLETED);

      const head = approval.merge.headCommit;
      expect(git(repo, "rev-parse", "main").trim()).toBe(head);
      expect(git(repo, "show", "main:work.txt")).toBe("work\n");
      // The workspace's checkout came along, and is clean.
      expect(await readFile(join(repo, "work.txt"), "utf8")).toBe("work\n");
      expect(git(repo, "status", "--porcelain", "--untracked-files=no")).toBe("");
      expect(await deliveryOf(h.client, taskId)).toMatchObject({
        target: "merge",
        merge: { outcome: "merged", into: "main", commit: head, how: "fast-forward", by: "caller" },
      });
      expect(h.bench.model.unmatched).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "a no leaves main as it was: the task completes, the branch kept, the reason recorded",
    async () => {
      const h = await start();
      const repo = workspaceOf(h);
      const before = git(repo, "rev-parse", "main").trim();
      const asked = await askMerge(h.client);
      const approval = approvalOf(asked);
      const { taskId, contextId } = idsOf(asked);
      const answered = await streamMessage(h.client, "no, not this week", { taskId, contextId });
      expect(lastStatus(answered).state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(git(repo, "rev-parse", "main").trim()).toBe(before);
      // The work stays on the conversation's branch (published: the caller is anonymous).
      expect(git(repo, "rev-parse", approval.merge.branch).trim()).toBe(approval.merge.headCommit);
      expect(await deliveryOf(h.client, taskId)).toMatchObject({
        merge: { outcome: "declined", reason: "no, not this week", by: "caller" },
      });
    },
    TIMEOUT,
  );

  it(
    "approvedBy \"operator\": the caller's yes is refused and the task still waits; an operator's yes merges",
    async () => {
      const TOKEN = { alice: "alice-token-0123456789", ops: "ops-token-0123456789" };
      const h = await start({
        delivery: { approvedBy: "operator" },
        server: { auth: { tokens: tokenEntries(TOKEN) }, operators: ["ops"] },
      });
      const alice = await h.connect({ token: TOKEN.alice, fetchImpl: withControl });
      const ops = await h.connect({ token: TOKEN.ops });
      const repo = workspaceOf(h);
      const before = git(repo, "rev-parse", "main").trim();
      const asked = await askMerge(alice);
      const approval = approvalOf(asked);
      expect(approval.approvedBy).toBe("operator");
      const { taskId, contextId } = idsOf(asked);

      await expect(streamMessage(alice, "yes", { taskId, contextId })).rejects.toThrow(
        /only an operator may answer this merge approval/,
      );
      expect((await getTask(alice, taskId)).status?.state).toBe(
        TaskState.TASK_STATE_INPUT_REQUIRED,
      );
      expect(git(repo, "rev-parse", "main").trim()).toBe(before);

      const answered = await streamMessage(ops, "yes", { taskId, contextId });
      expect(lastStatus(answered).state).toBe(TaskState.TASK_STATE_COMPLETED);
      // Alice's branch lives in her conversation's repository: the merge fetched it.
      expect(git(repo, "rev-parse", "main").trim()).toBe(approval.merge.headCommit);
      expect(await deliveryOf(alice, taskId)).toMatchObject({
        merge: { outcome: "merged", by: "ops" },
      });
    },
    TIMEOUT,
  );

  it(
    "a base that moved with a conflicting change: the server merges it in, Claude resolves it in a rework turn, the checks run again, and the yes merges",
    async () => {
      let repo = "";
      const h = await a2a({
        fetchImpl: withControl,
        config: configWith(),
        rules: rules(() => {
          // While the task works, main gets its own work.txt: the merge will conflict.
          commitOnMain(repo);
        }),
        beforeStart: (cwd) => initRepository(cwd),
      });
      repo = workspaceOf(h);
      const base = git(repo, "rev-parse", "main").trim();
      const asked = await askMerge(h.client);
      const approval = approvalOf(asked);
      const moved = git(repo, "rev-parse", "main").trim();
      expect(moved).not.toBe(base);
      // After the rework the branch holds main: a fast-forward.
      expect(approval.merge).toMatchObject({ intoCommit: moved, how: "fast-forward" });
      expect(approval.proof.baseCommit).toBe(base);
      expect(approval.proof.rounds).toBe(2);

      const rework = h.bench.model.requests.find((r) => r.rule === "rework: read");
      expect(rework?.request.lastUserText).toContain("The base branch `main` moved");
      const steps = asked.flatMap((e) =>
        e.payload?.$case === "statusUpdate" &&
        e.payload.value.status?.message?.metadata?.step === "merge"
          ? [e.payload.value.status.message.metadata]
          : [],
      );
      expect(steps).toEqual([
        expect.objectContaining({ into: "main", intoCommit: moved, conflicts: ["work.txt"] }),
      ]);

      const { taskId, contextId } = idsOf(asked);
      const answered = await streamMessage(h.client, "yes", { taskId, contextId });
      expect(lastStatus(answered).state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(git(repo, "show", "main:work.txt")).toBe("work and other\n");
      expect(git(repo, "merge-base", "--is-ancestor", moved, "main")).toBe("");
      expect(git(repo, "status", "--porcelain", "--untracked-files=no")).toBe("");
      expect(await deliveryOf(h.client, taskId)).toMatchObject({
        merge: { outcome: "merged", how: "fast-forward" },
      });
      expect(h.bench.model.unmatched).toEqual([]);
    },
    TIMEOUT,
  );
});

describe("merge on approval: merge commits and an unclean checkout", () => {
  it(
    'merge.how "merge-commit": a yes makes a merge commit authored as configured, outside the checkout',
    async () => {
      const h = await start({
        delivery: {
          merge: { how: "merge-commit", author: { name: "Ops", email: "ops@example.com" } },
        },
      });
      const repo = workspaceOf(h);
      const before = git(repo, "rev-parse", "main").trim();
      const asked = await askMerge(h.client);
      const approval = approvalOf(asked);
      expect(approval.merge.how).toBe("merge-commit");
      expect(lastStatus(asked).text).toMatch(/, with a merge commit\?$/);
      const answered = await streamMessage(h.client, "ok", idsOf(asked));
      expect(lastStatus(answered).state).toBe(TaskState.TASK_STATE_COMPLETED);
      const merged = git(repo, "rev-parse", "main").trim();
      expect(git(repo, "log", "-1", "--format=%P|%an <%ae>", "main").trim()).toBe(
        `${before} ${approval.merge.headCommit}|Ops <ops@example.com>`,
      );
      expect(git(repo, "status", "--porcelain", "--untracked-files=no")).toBe("");
      expect(await readFile(join(repo, "work.txt"), "utf8")).toBe("work\n");
      expect(await deliveryOf(h.client, idsOf(asked).taskId)).toMatchObject({
        merge: { outcome: "merged", commit: merged, how: "merge-commit" },
      });
    },
    TIMEOUT,
  );

  it(
    "a checkout of main with uncommitted changes: the yes fails the task with why, main and the changes untouched",
    async () => {
      const h = await start();
      const repo = workspaceOf(h);
      const before = git(repo, "rev-parse", "main").trim();
      const asked = await askMerge(h.client);
      approvalOf(asked);
      writeFileSync(join(repo, "base.txt"), "edited by hand\n");
      const answered = await streamMessage(h.client, "yes", idsOf(asked));
      const end = lastStatus(answered);
      expect(end.state).toBe(TaskState.TASK_STATE_FAILED);
      expect(end.text).toBe(
        "Delivery failed: the base branch main is checked out in the workspace with uncommitted " +
          "changes, which a merge would leave half-merged: commit or stash them; the work stays " +
          "on its branch.",
      );
      expect(git(repo, "rev-parse", "main").trim()).toBe(before);
      expect(await readFile(join(repo, "base.txt"), "utf8")).toBe("edited by hand\n");
    },
    TIMEOUT,
  );
});

describe("merge on approval: the terminal client", () => {
  it(
    "send --deliver merge stops at the approval (exit 3) and shows it; send --task <id> yes merges",
    async () => {
      const h = await a2a({
        config: configWith(),
        rules: rules(),
        beforeStart: (cwd) => initRepository(cwd),
      });
      const repo = workspaceOf(h);
      const cli = await terminal(h.server.url);
      const asked = await cli.run(["send", "--deliver", "merge", "Do the work"]);
      expect(asked.err).toBe("");
      expect(asked.code).toBe(3);
      expect(asked.out).toMatch(/! Merge approval: Merge `claude-a2a\/.+` \(\w{12}\) into `main`/);
      expect(asked.out).toContain("    files:  work.txt");
      expect(asked.out).toContain("    checks: present passed (round 1)");
      const taskId = /send --task (\S+)/.exec(asked.out)?.[1] ?? "";
      expect(taskId).not.toBe("");

      const answered = await cli.run(["send", "--task", taskId, "yes"]);
      expect(answered.code).toBe(0);
      expect(answered.out).toMatch(/\[completed\]/);
      expect(git(repo, "show", "main:work.txt")).toBe("work\n");
      await cli.close();
    },
    TIMEOUT,
  );
});

/** main gets a work.txt of its own, committed in the workspace's checkout. */
function commitOnMain(repo: string): void {
  writeFileSync(join(repo, "work.txt"), "other\n");
  git(repo, "add", "work.txt");
  git(repo, "commit", "-q", "-m", "other work on main");
}
