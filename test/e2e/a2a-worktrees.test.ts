/**
 * `claude.isolation: "worktree"` (docs/workspaces.md "Isolation") through the official A2A client, against
 * the REAL Claude Code runtime with a scripted model, on a temporary git repository: each
 * conversation works in its own worktree on its own branch, each task's change is committed
 * there, the workspace's own checkout is never touched.
 */
import { mkdir, mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { readdirSync, readlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { TaskState, type Task } from "@a2a-js/sdk";
import {
  a2a,
  afterTool,
  freePort,
  messageText,
  reply,
  resultOf,
  sendForTask,
  text,
  toolUse,
  userMessage,
  type ParsedRequest,
} from "../support/harness/index.js";
import { git, initRepository as initRepositoryOf, workingDir } from "../support/harness/git.js";
import { resolveConfig } from "../../src/config/load.js";
import { startServer, StartupError } from "../../src/app/server.js";
import { WORKTREE_SETUP } from "../../src/workspace/worktrees/manager.js";
import type { WorktreeMetadata } from "../../src/contract/worktree.js";

/**
 * The context id a worktree's name starts with (`<contextId>-<hash>`; ours have no `-`). The
 * folder may be a taken spare's, which never moves: the conversation's name is then the link to
 * it, beside it in the worktrees folder.
 */
const contextOf = (req: ParsedRequest) => {
  const dir = workingDir(req);
  const name =
    readdirSync(dirname(dir)).find((n) => {
      try {
        return readlinkSync(join(dirname(dir), n)) === basename(dir);
      } catch {
        return false;
      }
    }) ?? basename(dir);
  return name.split("-")[0] ?? "";
};

const rules = [
  {
    name: "edit: read first",
    match: { lastUserText: /Edit the file/, toolResult: false },
    reply: (req: ParsedRequest) =>
      reply(toolUse("Read", { file_path: join(workingDir(req), "shared.txt") })),
  },
  {
    name: "show: read",
    match: { lastUserText: /Show the file/, toolResult: false },
    reply: (req: ParsedRequest) =>
      reply(toolUse("Read", { file_path: join(workingDir(req), "shared.txt") })),
  },
  afterTool(/updated successfully/, "Edited.", "edited"),
  {
    name: "edit: the base line becomes the context's",
    match: { toolResult: /base/ },
    reply: (req: ParsedRequest) =>
      reply(
        toolUse("Edit", {
          file_path: join(workingDir(req), "shared.txt"),
          old_string: "base",
          new_string: `edited in ${contextOf(req)}`,
        }),
      ),
  },
  {
    name: "show: what was read",
    match: { toolResult: true },
    reply: (req: ParsedRequest) =>
      reply(text(`The file says: ${req.toolResults[0]?.content ?? ""} (in ${workingDir(req)})`)),
  },
];

const initRepository = (cwd: string) =>
  initRepositoryOf(cwd, { "shared.txt": "base\n", "other.txt": "untouched\n" });

const worktreeOf = (task: Task) => task.metadata?.worktree as WorktreeMetadata | undefined;
const diffOf = (task: Task) => {
  const artifact = task.artifacts.find((a) => a.metadata?.kind === "diff");
  const part = artifact?.parts[0];
  return {
    artifact,
    text: part?.content?.$case === "raw" ? Buffer.from(part.content.value).toString("utf8") : "",
    mediaType: part?.mediaType,
  };
};

describe('claude.isolation: "worktree"', () => {
  it("three conversations edit one file at once, each on its own branch; the checkout stays as it was; follow-ups and a restart stay in the worktree", async () => {
    const h = await a2a({
      rules,
      config: { claude: { isolation: "worktree" } },
      beforeStart: initRepository,
    });
    const repo = h.bench.sandbox.cwd;
    const head = git(repo, "rev-parse", "HEAD").trim();
    // After the server has started: its store and session files are in the workspace already.
    const status = git(repo, "status", "--porcelain", "--untracked-files=all");
    const client = h.client;

    const contexts = ["wt1", "wt2", "wt3"];
    const tasks = await Promise.all(
      contexts.map((contextId) => sendForTask(client, userMessage("Edit the file", { contextId }))),
    );
    for (const [i, task] of tasks.entries()) {
      const contextId = contexts[i] ?? "";
      expect(task.status?.state, messageText(task.status?.message)).toBe(
        TaskState.TASK_STATE_COMPLETED,
      );
      const meta = worktreeOf(task);
      expect(meta?.branch).toMatch(new RegExp(`^claude-a2a/${contextId}-[0-9a-f]{10}$`));
      const branch = meta?.branch ?? "";
      // The branch holds exactly its own change, in one commit on the workspace's HEAD.
      expect(meta?.baseCommit).toBe(head);
      expect(meta?.commit).toBe(git(repo, "rev-parse", branch).trim());
      expect(git(repo, "rev-parse", `${branch}~1`).trim()).toBe(head);
      expect(meta?.files).toEqual([{ path: "shared.txt", change: "modified" }]);
      expect(git(repo, "show", `${branch}:shared.txt`)).toBe(`edited in ${contextId}\n`);
      expect(git(repo, "diff", "--name-only", head, branch)).toBe("shared.txt\n");
      expect(git(repo, "log", "-1", "--format=%s", branch).trim()).toBe(
        `claude-a2a: task ${task.id}`,
      );
      // The diff artifact is the commit's diff.
      const diff = diffOf(task);
      expect(diff.mediaType).toBe("text/x-diff");
      expect(diff.artifact?.metadata?.commit).toBe(meta?.commit);
      expect(diff.text).toBe(git(repo, "diff", head, branch));
      expect(diff.text).toContain(`-base\n+edited in ${contextId}\n`);
    }

    // The workspace's own checkout: the same bytes, the same status, the same HEAD.
    expect(await readFile(join(repo, "shared.txt"), "utf8")).toBe("base\n");
    expect(await readFile(join(repo, "other.txt"), "utf8")).toBe("untouched\n");
    expect(git(repo, "status", "--porcelain", "--untracked-files=all")).toBe(status);
    expect(git(repo, "rev-parse", "HEAD").trim()).toBe(head);
    expect(git(repo, "diff", "HEAD")).toBe("");

    // A follow-up sees its own earlier change, not the others', and changes nothing.
    const followUp = await sendForTask(client, userMessage("Show the file", { contextId: "wt1" }));
    const seen = resultOf(followUp);
    expect(seen).toContain("edited in wt1");
    expect(seen).not.toMatch(/edited in wt[23]|base/);
    expect(worktreeOf(followUp)).toBeUndefined();
    expect(diffOf(followUp).artifact).toBeUndefined();

    // After a restart, the conversation continues in its worktree (and its Claude session).
    const branch2 = worktreeOf(tasks[1] as Task)?.branch ?? "";
    const spawnsBefore = h.spawns();
    await h.restart();
    const afterRestart = await h.send("Show the file", { contextId: "wt2" });
    expect(h.spawns()).toBe(spawnsBefore + 1);
    const text2 = resultOf(afterRestart);
    expect(text2).toContain("edited in wt2");
    // Its working directory is the worktree's path, or, where the conversation took a spare (the
    // three start at once: which one takes it is the scheduler's), the spare folder that path
    // links to (docs/spares.md, "Under worktree"): the same directory either way.
    const worktree2 = join(repo, ".claude/worktrees", branch2.split("/")[1] ?? "");
    expect([worktree2, await realpath(worktree2)].some((dir) => text2.includes(dir))).toBe(true);
    const resumed = h.bench.model.requests.at(-1)?.request.body.messages;
    expect(JSON.stringify(resumed)).toContain("Edit the file");
    expect(git(repo, "status", "--porcelain", "--untracked-files=all")).toBe(status);
    expect(h.bench.model.unmatched).toEqual([]);
  }, 120_000);

  it("a workspace that is not a git repository stops startup with the documented message", async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), "claude-a2a-nogit-")));
    try {
      const cwd = join(root, "work");
      await mkdir(cwd);
      const config = resolveConfig(
        { claude: { isolation: "worktree" }, store: { type: "memory" } },
        { file: "<test config>", startDir: cwd, overrides: { port: await freePort(), cwd } },
      );
      const starting = startServer({ config, logger: pino({ level: "silent" }) });
      await expect(starting).rejects.toBeInstanceOf(StartupError);
      await expect(starting).rejects.toThrow(WORKTREE_SETUP.notARepository(cwd));
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 30_000);
});
