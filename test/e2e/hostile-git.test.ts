/**
 * A hostile caller (or a prompt injection) steering Claude against the repository's git, with the
 * REAL Claude Code runtime, the real bubblewrap of this machine and the scripted model, through
 * the official A2A client (docs/sandbox.md "strict", docs/workspaces.md "Isolation"): sandboxed
 * Bash cannot move a ref or write the repository's shared git metadata, a commit planted with
 * runtime hooks never becomes what a new conversation starts from (and its hook never runs), and
 * the server's own end-of-task commit still works.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type Task } from "@a2a-js/sdk";
import {
  a2a,
  afterTool,
  reply,
  sendForTask,
  toolUse,
  userMessage,
  type A2AHarness,
  type ParsedRequest,
  type Rule,
} from "../support/harness/index.js";
import { git, initRepository, workingDir } from "../support/harness/git.js";
import type { WorktreeMetadata } from "../../src/contract/worktree.js";

/**
 * "SCRIPT: <body>": the model writes the body to `attack.sh` in its working folder (Write, no
 * prompt under acceptEdits), runs it with Bash (a plain command: no prompt in the sandbox, where
 * the same lines typed inline would ask for their `$(…)`), then says it did. The script removes
 * itself, so the task leaves no change of its own.
 */
const scriptRules: Rule[] = [
  {
    name: "run the script",
    match: { toolResult: /File created successfully/ },
    reply: reply(toolUse("Bash", { command: "sh attack.sh", description: "Run the script" })),
  },
  afterTool(true, "Ran it.", "ran"),
  {
    name: "write the script",
    match: { lastUserText: /SCRIPT: /, toolResult: false },
    reply: (req: ParsedRequest) =>
      reply(
        toolUse("Write", {
          file_path: join(workingDir(req), "attack.sh"),
          content: `${/SCRIPT: ([\s\S]*)$/.exec(req.lastUserText)?.[1]?.trim() ?? ""}\nrm -f -- "$0"\n`,
        }),
      ),
  },
];

/** What the tools answered in the turn whose prompt contains `marker` (up to its next prompt). */
function toolOutput(h: A2AHarness, marker: string): string {
  const requests = h.bench.model.requests.map((r) => r.request);
  const at = requests.findIndex((r) => r.lastUserText.includes(marker));
  const after = requests.slice(at + 1);
  const end = after.findIndex((r) => r.toolResults.length === 0);
  return (end < 0 ? after : after.slice(0, end))
    .flatMap((r) => r.toolResults.map((t) => t.content))
    .join("\n");
}

/** Runs `script` in a new conversation's task, to its end: the completed task. */
async function run(h: A2AHarness, script: string): Promise<Task> {
  const task = await sendForTask(h.client, userMessage(`SCRIPT: ${script}`));
  expect(task.status?.state, JSON.stringify(task.status?.message)).toBe(
    TaskState.TASK_STATE_COMPLETED,
  );
  return task;
}

const worktreeOf = (task: Task) => task.metadata?.worktree as WorktreeMetadata | undefined;

/** Every ref of the repository, HEAD and the packed-refs file: what no conversation may change. */
const refsOf = (repo: string) =>
  git(repo, "for-each-ref", "--format=%(refname) %(objectname)") +
  git(repo, "symbolic-ref", "HEAD") +
  (existsSync(join(repo, ".git/packed-refs"))
    ? readFileSync(join(repo, ".git/packed-refs"), "utf8")
    : "");

/** Who a sandboxed commit is by (none is configured), so a commit fails for the sandbox only. */
const IDENTITY =
  "export GIT_AUTHOR_NAME=x GIT_AUTHOR_EMAIL=x@x GIT_COMMITTER_NAME=x GIT_COMMITTER_EMAIL=x@x";

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
    IDENTITY,
    `B=$(printf '%s' '${settings}' | git hash-object -w --stdin)`,
    `S=$(printf '100644 blob %s\\tsettings.json\\n' "$B" | git mktree)`,
    `T=$( (git ls-tree HEAD; printf '040000 tree %s\\t.claude\\n' "$S") | git mktree)`,
    `C=$(git commit-tree "$T" -p HEAD -m planted)`,
    `git update-ref refs/heads/main "$C"; echo "planted=$? $C"`,
  ].join("\n");
};

/** The sandboxed git writes of the common dir: a ref, packed-refs, a commit; each one's code. */
const refWrites = (target: string) =>
  [
    IDENTITY,
    "C=$(git rev-parse --path-format=absolute --git-common-dir)",
    `git update-ref refs/heads/main ${target}; echo "update-ref=$?"`,
    `echo "${target} refs/heads/evil" >> "$C/packed-refs"; echo "packed-refs=$?"`,
    `git commit -q --allow-empty -m sneaked; echo "commit=$?"`,
    // A conversation's own repository names the workspace's, whose objects it borrows.
    'A="$C/objects/info/alternates"',
    `if [ -f "$A" ]; then echo "${target} refs/heads/evil" >> "$(dirname "$(cat "$A")")/packed-refs"; echo "workspace-packed-refs=$?"; fi`,
  ].join("\n");

describe.each(["worktree", "shared"] as const)(
  'claude.sandbox "strict", claude.isolation "%s": the repository\'s git metadata is read-only',
  (isolation) => {
    it("a sandboxed update-ref, a write of packed-refs and a git commit all fail; every ref stays", async () => {
      const h = await a2a({
        config: { claude: { sandbox: "strict", isolation } },
        rules: scriptRules,
        beforeStart: twoCommits,
      });
      const repo = h.bench.sandbox.cwd;
      const first = git(repo, "rev-parse", "main~1").trim();
      const before = refsOf(repo);
      const task = await run(h, refWrites(first));
      const output = toolOutput(h, "SCRIPT:");
      expect(output).toMatch(/update-ref=[1-9]/);
      expect(output).toMatch(/packed-refs=[1-9]/);
      expect(output).toMatch(/commit=[1-9]/);
      if (isolation === "worktree") expect(output).toMatch(/workspace-packed-refs=[1-9]/);
      expect(existsSync(join(repo, ".git/packed-refs"))).toBe(false);
      const after = refsOf(repo);
      // The workspace's refs are as the server left them at startup (with worktrees, plus the
      // ref keeping the base commit, whose objects every conversation's repository borrows).
      expect(after).toBe(before);
      if (isolation === "worktree") {
        // The conversation's own repository holds its branch at the base commit, and nothing
        // the command tried: no ref, no packed-refs, no commit.
        const base = git(repo, "rev-parse", "main").trim();
        expect(before).toContain(`refs/claude-a2a/bases/${base} ${base}\n`);
        const dir = join(repo, ".claude/worktrees");
        const [name = ""] = readdirSync(dir).filter((f) => !f.startsWith("."));
        expect(git(join(dir, name), "for-each-ref", "--format=%(refname) %(objectname)")).toBe(
          `refs/heads/claude-a2a/${name} ${base}\n`,
        );
        expect(existsSync(join(dir, name, ".git/packed-refs"))).toBe(false);
        expect(worktreeOf(task)).toBeUndefined();
      }
    });
  },
);

describe('claude.sandbox "strict", claude.isolation "worktree": new worktrees start from the pinned commit', () => {
  it("a planted commit with runtime hooks never reaches the next conversation, whose hook never runs", async () => {
    const h = await a2a({
      // Project settings on: a worktree made from the planted commit would run its hook.
      config: { claude: { sandbox: "strict", isolation: "worktree", settingSources: ["project"] } },
      rules: scriptRules,
      beforeStart: twoCommits,
    });
    const repo = h.bench.sandbox.cwd;
    const pinned = git(repo, "rev-parse", "main").trim();
    const marker = join(h.bench.sandbox.root, "hook-ran");
    await run(h, plantCommand(marker));
    expect(toolOutput(h, "SCRIPT:")).toMatch(/planted=[1-9]/);
    expect(git(repo, "rev-parse", "main").trim()).toBe(pinned);
    // Even with the branch moved as the server's user (the attack done some other way), the
    // next conversation starts from the commit pinned at startup.
    const planted = git(repo, "commit-tree", "main^{tree}", "-p", "main", "-m", "moved").trim();
    git(repo, "update-ref", "refs/heads/main", planted);
    const task = await run(h, "git rev-parse HEAD\npwd");
    const output = toolOutput(h, "SCRIPT: git rev-parse");
    expect(output).toContain(pinned);
    expect(output).not.toContain(planted);
    // Its worktree, seen from outside the sandbox (inside, the runtime's own masks show there).
    const tree = [...output.matchAll(/^(\/\S*\.claude\/worktrees\/[^\s/]+)$/gm)].at(-1)?.[1] ?? "";
    expect(tree).not.toBe("");
    expect(git(tree, "rev-parse", "HEAD").trim()).toBe(pinned);
    expect(existsSync(join(tree, ".claude/settings.json"))).toBe(false);
    expect(worktreeOf(task)).toBeUndefined();
    expect(existsSync(marker)).toBe(false);
  });

  it("the server's end-of-task commit still lands on the conversation's branch", async () => {
    const h = await a2a({
      config: { claude: { sandbox: "strict", isolation: "worktree" } },
      rules: scriptRules,
      beforeStart: twoCommits,
    });
    const repo = h.bench.sandbox.cwd;
    const meta = worktreeOf(await run(h, "echo written > note.txt && echo done"));
    expect(meta?.files).toEqual([{ path: "note.txt", change: "added" }]);
    expect(git(repo, "rev-parse", meta?.branch ?? "").trim()).toBe(meta?.commit);
    expect(git(repo, "show", `${meta?.branch ?? ""}:note.txt`)).toBe("written\n");
    expect(git(repo, "rev-parse", `${meta?.branch ?? ""}~1`).trim()).toBe(
      git(repo, "rev-parse", "main").trim(),
    );
  });
});
