/**
 * A hostile caller (or a prompt injection) steering Claude against the repository's git, with the
 * REAL Claude Code runtime, the real bubblewrap of this machine and the scripted model, through
 * the official A2A client (docs/sandbox.md "strict", docs/workspaces.md "Isolation"): sandboxed
 * Bash cannot move a ref or write the repository's shared git metadata, a commit planted with
 * runtime hooks never becomes what a new conversation starts from (and its hook never runs), and
 * the server's own end-of-task commit still works.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type StreamResponse, type Task } from "@a2a-js/sdk";
import {
  a2a,
  afterTool,
  lastStatus,
  reply,
  streamMessage,
  toolUse,
  type A2AHarness,
  type ParsedRequest,
  type Rule,
} from "../support/harness/index.js";
import { git, initRepository } from "../support/harness/git.js";
import type { WorktreeMetadata } from "../../src/contract/worktree.js";

/** "RUN: <command>": the model runs the command with Bash, then says it did. */
const bashRules: Rule[] = [
  afterTool(true, "Ran it.", "ran"),
  {
    name: "run",
    match: { lastUserText: /RUN: / },
    reply: (req: ParsedRequest) =>
      reply(
        toolUse("Bash", {
          command: /RUN: ([\s\S]*)$/.exec(req.lastUserText)?.[1]?.trim() ?? "false",
          description: "Run the command",
        }),
      ),
  },
];

/** The text the runtime gave the model for the Bash call of the turn that ran `marker`. */
function bashOutput(h: A2AHarness, marker: string): string {
  const requests = h.bench.model.requests.map((r) => r.request);
  const at = requests.findIndex((r) => r.lastUserText.includes(marker));
  return (
    requests.slice(at + 1).find((r) => r.toolResults.length > 0)?.toolResults[0]?.content ?? ""
  );
}

/** Runs `command` in a new conversation's task, to its end. */
async function run(h: A2AHarness, command: string): Promise<StreamResponse[]> {
  const events = await streamMessage(h.client, `RUN: ${command}`);
  expect(lastStatus(events).state).toBe(TaskState.TASK_STATE_COMPLETED);
  return events;
}

/** The final task's `metadata.worktree`, from the stream's last status. */
const worktreeOf = (events: readonly StreamResponse[]) =>
  (lastStatus(events) as unknown as { metadata?: Task["metadata"] }).metadata?.worktree as
    WorktreeMetadata | undefined;

/** Every ref of the repository and its packed-refs file: what no conversation may change. */
const refsOf = (repo: string) =>
  git(repo, "for-each-ref", "--format=%(refname) %(objectname)") +
  (existsSync(join(repo, ".git/packed-refs")) ? git(repo, "cat-file", "-p", "HEAD") : "");

/** A repository with two commits on `main`, so `main~1` is a commit to move `main` back to. */
async function twoCommits(cwd: string): Promise<void> {
  await initRepository(cwd);
  git(cwd, "commit", "-q", "--allow-empty", "-m", "second");
}

/**
 * The attack of issue 45: with git plumbing only (the runtime refuses a write of
 * `.claude/settings.json` itself), a commit adding runtime settings with a hook that leaves
 * `marker`, written as the workspace's `main`.
 */
const plantCommand = (marker: string): string => {
  const hook = [{ hooks: [{ type: "command", command: `touch ${marker}` }] }];
  const settings = JSON.stringify({ hooks: { SessionStart: hook, UserPromptSubmit: hook } });
  return [
    `B=$(printf '%s' '${settings}' | git hash-object -w --stdin)`,
    `S=$(printf '100644 blob %s\\tsettings.json\\n' "$B" | git mktree)`,
    `T=$( (git ls-tree HEAD; printf '040000 tree %s\\t.claude\\n' "$S") | git mktree)`,
    `C=$(git commit-tree "$T" -p HEAD -m planted)`,
    `git update-ref refs/heads/main "$C"; echo "planted=$? $C"`,
  ].join("; ");
};

/** The sandboxed git writes of the common dir: a ref, packed-refs, a commit; each one's code. */
const refWrites = (target: string) =>
  [
    "C=$(git rev-parse --path-format=absolute --git-common-dir)",
    `git update-ref refs/heads/main ${target}; echo "update-ref=$?"`,
    `echo "${target} refs/heads/evil" >> "$C/packed-refs"; echo "packed-refs=$?"`,
    `git commit -q --allow-empty -m sneaked; echo "commit=$?"`,
  ].join("; ");

describe.each(["worktree", "shared"] as const)(
  'claude.sandbox "strict", claude.isolation "%s": the repository\'s git metadata is read-only',
  (isolation) => {
    it("a sandboxed update-ref, a write of packed-refs and a git commit all fail; every ref stays", async () => {
      const h = await a2a({
        config: { claude: { sandbox: "strict", isolation } },
        rules: bashRules,
        beforeStart: twoCommits,
      });
      const repo = h.bench.sandbox.cwd;
      const first = git(repo, "rev-parse", "main~1").trim();
      const before = refsOf(repo);
      const events = await run(h, refWrites(first));
      const output = bashOutput(h, "RUN:");
      expect(output).toMatch(/update-ref=[1-9]/);
      expect(output).toMatch(/packed-refs=[1-9]/);
      expect(output).toMatch(/commit=[1-9]/);
      expect(existsSync(join(repo, ".git/packed-refs"))).toBe(false);
      const after = refsOf(repo);
      if (isolation === "shared") expect(after).toBe(before);
      else {
        // Only the conversation's branch is new, made by the server, at the workspace's HEAD.
        const branch = git(repo, "for-each-ref", "--format=%(refname)", "refs/heads/claude-a2a/");
        expect(branch.trim().split("\n")).toHaveLength(1);
        const added = `${branch.trim()} ${git(repo, "rev-parse", "main").trim()}\n`;
        expect(after.split("\n").sort()).toEqual(`${before}${added}`.split("\n").sort());
        expect(worktreeOf(events)).toBeUndefined();
      }
    });
  },
);

describe('claude.sandbox "strict", claude.isolation "worktree": new worktrees start from the pinned commit', () => {
  it("a planted commit with runtime hooks never reaches the next conversation, whose hook never runs", async () => {
    const h = await a2a({
      // Project settings on: a worktree made from the planted commit would run its hook.
      config: { claude: { sandbox: "strict", isolation: "worktree", settingSources: ["project"] } },
      rules: bashRules,
      beforeStart: twoCommits,
    });
    const repo = h.bench.sandbox.cwd;
    const pinned = git(repo, "rev-parse", "main").trim();
    const marker = join(h.bench.sandbox.root, "hook-ran");
    await run(h, plantCommand(marker));
    expect(bashOutput(h, "RUN:")).toMatch(/planted=[1-9]/);
    expect(git(repo, "rev-parse", "main").trim()).toBe(pinned);
    // Even with the branch moved as the server's user (the attack done some other way), the
    // next conversation starts from the commit pinned at startup.
    const planted = git(repo, "commit-tree", "main^{tree}", "-p", "main", "-m", "moved").trim();
    git(repo, "update-ref", "refs/heads/main", planted);
    const events = await run(h, "git rev-parse HEAD; ls -a .claude 2>&1; pwd");
    const output = bashOutput(h, "RUN: git rev-parse");
    expect(output).toContain(pinned);
    expect(output).not.toContain(planted);
    expect(output).not.toContain("settings.json");
    expect(output).toContain(".claude/worktrees/");
    expect(worktreeOf(events)).toBeUndefined();
    expect(existsSync(marker)).toBe(false);
  });

  it("the server's end-of-task commit still lands on the conversation's branch", async () => {
    const h = await a2a({
      config: { claude: { sandbox: "strict", isolation: "worktree" } },
      rules: bashRules,
      beforeStart: twoCommits,
    });
    const repo = h.bench.sandbox.cwd;
    const events = await run(h, "echo written > note.txt && echo done");
    const meta = worktreeOf(events);
    expect(meta?.files).toEqual([{ path: "note.txt", change: "added" }]);
    expect(git(repo, "rev-parse", meta?.branch ?? "").trim()).toBe(meta?.commit);
    expect(git(repo, "show", `${meta?.branch ?? ""}:note.txt`)).toBe("written\n");
    expect(git(repo, "rev-parse", `${meta?.branch ?? ""}~1`).trim()).toBe(
      git(repo, "rev-parse", "main").trim(),
    );
  });
});
