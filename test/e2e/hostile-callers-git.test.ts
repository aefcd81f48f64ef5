/**
 * Two callers on one `"strict"` workspace with worktree isolation, at the git level (docs/security.md,
 * "What separates callers"; docs/workspaces.md, "One repository per conversation"): caller A,
 * hostile, tries to read B's committed work and to change or break B's branch and the shared
 * repository, through Bash and the file tools, answering every prompt with yes. Then the server's
 * own user damages B's repository: only B's tasks notice, and `/healthz` names it. The REAL Claude
 * Code runtime, real bubblewrap and the scripted model, through the official A2A client with two
 * bearer tokens.
 */
import { appendFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import {
  a2a,
  attempt,
  hostileRules,
  idsOf,
  lastStatus,
  resultsSince,
  tokenEntries,
} from "../support/harness/index.js";
import { git, initRepository } from "../support/harness/git.js";
import type { WorktreeMetadata } from "../../src/contract/worktree.js";

const TOKENS = { a: "token-of-caller-a-5b21", b: "token-of-caller-b-e07d" };
/** B's committed secret; A's commands search for it without writing it whole. */
const B_SECRET = "b-committed-work-81f4";
const SEARCH = `${B_SECRET.slice(0, -1)}[${B_SECRET.slice(-1)}]`;

/** The final status's `metadata.worktree` of a task's stream. */
const worktreeOf = (events: StreamResponse[]) =>
  events.flatMap((e) => (e.payload?.$case === "statusUpdate" ? [e.payload.value] : [])).at(-1)
    ?.metadata?.worktree as (WorktreeMetadata & { error?: string }) | undefined;

describe("caller A against caller B's committed work (strict, worktree isolation)", () => {
  it("A can neither read B's commits nor move or break B's branch; a repository damaged later fails only its own conversation, and /healthz names it", async () => {
    const h = await a2a({
      rules: hostileRules,
      config: {
        server: { auth: { tokens: tokenEntries(TOKENS) } },
        claude: { sandbox: "strict", isolation: "worktree" },
      },
      beforeStart: (cwd) => initRepository(cwd),
    });
    const repo = h.bench.sandbox.cwd;
    const a = await h.connect({ token: TOKENS.a });
    const b = await h.connect({ token: TOKENS.b });

    // B commits its work (the server's end-of-task commit, in B's own repository).
    let from = h.bench.model.requests.length;
    const wrote = await attempt(b, `RUN: echo ${B_SECRET} > b-work.txt && pwd`);
    expect(lastStatus(wrote).state).toBe(TaskState.TASK_STATE_COMPLETED);
    const bTree = /^(\/\S+)$/m.exec(resultsSince(h, from))?.[1] ?? "";
    expect(bTree).toContain(".claude/worktrees/");
    const bCommit = worktreeOf(wrote)?.commit ?? "";
    const bBranch = worktreeOf(wrote)?.branch ?? "";
    expect(bCommit).toMatch(/^[0-9a-f]{40}$/);
    const bIds = idsOf(wrote);
    const bLog = git(bTree, "log", "--format=%H", bBranch);
    // Nothing of B's reached the workspace's repository: an authenticated caller's branch
    // stays in its own until the operator fetches it.
    expect(() => git(repo, "cat-file", "-e", bCommit)).toThrow();

    // A's own conversation, with a commit of its own.
    const mine = await attempt(a, "RUN: echo a > a-work.txt && git rev-parse --git-common-dir");
    expect(worktreeOf(mine)?.commit).toMatch(/^[0-9a-f]{40}$/);
    const aIds = idsOf(mine);

    // A, through Bash: every object its git can reach, B's repository named directly, the
    // workspace's store; then a ref of B's moved, B's packed-refs and the workspace's broken.
    from = h.bench.model.requests.length;
    const bash = await attempt(
      a,
      `RUN: git log -p --all | grep ${SEARCH}; ` +
        `git cat-file --batch-all-objects --batch | grep -a ${SEARCH}; ` +
        `git --git-dir=${bTree}/.git log -p | grep ${SEARCH}; ` +
        `git -C ${repo} log -p --all | grep ${SEARCH}; ` +
        `git --git-dir=${bTree}/.git update-ref refs/heads/${bBranch} HEAD; echo "move=$?"; ` +
        `echo garbage >> ${bTree}/.git/packed-refs; echo "b-refs=$?"; ` +
        `echo garbage >> ${repo}/.git/packed-refs; echo "workspace-refs=$?"; echo end-of-attempt`,
      { contextId: aIds.contextId },
    );
    expect(lastStatus(bash).state).toBe(TaskState.TASK_STATE_COMPLETED);
    const bashSeen = resultsSince(h, from);
    expect(bashSeen).toContain("end-of-attempt");
    expect(bashSeen).toMatch(/move=[1-9]/);
    expect(bashSeen).toMatch(/b-refs=[1-9]/);
    expect(bashSeen).toMatch(/workspace-refs=[1-9]/);
    // A, through the file tools: B's reflog (it names B's commit), and a ref of B's written.
    from = h.bench.model.requests.length;
    await attempt(a, `READ: ${bTree}/.git/logs/HEAD`, { contextId: aIds.contextId });
    await attempt(a, `WRITE: ${bTree}/.git/refs/heads/intruder`, { contextId: aIds.contextId });
    await attempt(a, `WRITE: ${repo}/.git/packed-refs`, { contextId: aIds.contextId });
    const toolSeen = resultsSince(h, from);
    for (const seen of [bashSeen, toolSeen, JSON.stringify(bash)]) {
      expect(seen).not.toContain(B_SECRET);
      expect(seen).not.toContain(bCommit);
    }
    expect(toolSeen).toContain("Refused by claude-a2a");

    // B's side: its branch's log unchanged, no intruding ref, and its next task commits.
    expect(git(bTree, "log", "--format=%H", bBranch)).toBe(bLog);
    expect(git(bTree, "for-each-ref", "--format=%(refname)")).toBe(`refs/heads/${bBranch}\n`);
    const next = await attempt(b, "RUN: echo more >> b-work.txt", { contextId: bIds.contextId });
    expect(lastStatus(next).state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(worktreeOf(next)?.baseCommit).toBe(bCommit);
    expect(git(bTree, "rev-parse", bBranch).trim()).toBe(worktreeOf(next)?.commit);

    // Damage done some other way (the server's own user): B's repository's refs garbled.
    await appendFile(join(bTree, ".git/packed-refs"), "garbage that is no ref\n");
    const broken = await attempt(b, "RUN: echo again >> b-work.txt", { contextId: bIds.contextId });
    // B's task says so, and keeps its change in the worktree.
    expect(lastStatus(broken).state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(lastStatus(broken).text).toContain("could not be committed");
    expect(worktreeOf(broken)?.error).toContain("packed-refs");
    expect(await readFile(join(bTree, "b-work.txt"), "utf8")).toContain("again");
    // A's work goes on: its next task commits.
    const aNext = await attempt(a, "RUN: echo b >> a-work.txt", { contextId: aIds.contextId });
    expect(worktreeOf(aNext)?.commit).toMatch(/^[0-9a-f]{40}$/);
    // /healthz: degraded, naming B's repository and git's complaint.
    const health = (await (await fetch(`${h.server.url}/healthz`)).json()) as {
      status: string;
      git?: { damaged: { repository: string; error: string }[] };
    };
    expect(health.status).toBe("degraded");
    expect(health.git?.damaged).toEqual([
      expect.objectContaining({
        repository: bBranch.slice("claude-a2a/".length),
        error: expect.stringContaining("packed-refs") as string,
      }),
    ]);
  });
});
