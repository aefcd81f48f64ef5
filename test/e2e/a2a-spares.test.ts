/**
 * `sessions.spares` against the REAL runtime and the scripted model, through the official
 * client: a new conversation runs in the Claude Code process started ahead of it (the runtime's
 * own list of its processes, `$CLAUDE_CONFIG_DIR/sessions/<pid>.json`, names the process and
 * the session id it was started with; the conversation's `system/init` carries that id), the
 * next one is started after it, two at once never share one, a killed one is replaced and never
 * handed out, a CLAUDE.md change gives a new one before the next conversation, and none outlives
 * its server, not even a server killed with SIGKILL.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type Message } from "@a2a-js/sdk";
import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { PIDS_FILE } from "../../src/sessions/orphans.js";
import {
  a2a,
  afterTool,
  reply,
  runtimeProcesses,
  sendForTask,
  serverProcess,
  text,
  toolUse,
  untilGone,
  untilPidFileLists,
  untilProcesses,
  userMessage,
  type A2AHarness,
  type ParsedRequest,
} from "../support/harness/index.js";
import { git, initRepository, workingDir } from "../support/harness/git.js";

const OPUS = "claude-opus-4-5";

const rules = [{ name: "any", match: {}, reply: reply(text("Done.")) }];

/** The session ids of the turns the server's sessions started (`system/init`), in order. */
const initSessions = (frames: readonly SDKMessage[]): string[] => [
  ...new Set(
    frames.flatMap((f) => (f.type === "system" && f.subtype === "init" ? [f.session_id] : [])),
  ),
];

const withModel = (message: Message, model: string): Message => ({
  ...message,
  metadata: { model },
});

async function health(harness: A2AHarness): Promise<{ ready: number; taken: number }> {
  const res = await fetch(`${harness.server.url.replace(/\/$/, "")}/healthz`);
  const body = (await res.json()) as { sessions: { spares?: { ready: number; taken: number } } };
  return body.sessions.spares ?? { ready: -1, taken: -1 };
}

describe("spare Claude Code processes (sessions.spares)", () => {
  it("a new conversation runs in the spare; the next spare starts after it; /healthz and /metrics count them", async () => {
    const h = await a2a({ rules, config: { sessions: { spares: 1 } } });
    const { configDir } = h.bench.sandbox;
    const [spare] = await untilProcesses(configDir, (all) => all.length === 1, "the spare");
    expect(h.spawns()).toBe(1);
    expect(await health(h)).toEqual({ ready: 1, taken: 0 });

    const task = await h.send("Hello");
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    // The conversation's turn ran in the spare's process, under the session id it started with.
    expect(initSessions(h.frames)).toEqual([spare?.sessionId]);
    const after = await untilProcesses(configDir, (all) => all.length === 2, "the next spare");
    expect(after.find((p) => p.sessionId === spare?.sessionId)?.pid).toBe(spare?.pid);
    expect(h.spawns()).toBe(2);
    expect(await health(h)).toEqual({ ready: 1, taken: 1 });
    const metrics = await (await fetch(`${h.server.url.replace(/\/$/, "")}/metrics`)).text();
    expect(metrics).toContain('claude_a2a_spares{state="ready"} 1');
    expect(metrics).toContain('claude_a2a_spares{state="taken"} 1');

    // The conversation's next turn is in the same process: no spare is involved.
    const next = await h.send("Again", { contextId: task.contextId });
    expect(next.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(initSessions(h.frames)).toEqual([spare?.sessionId]);
    expect(h.spawns()).toBe(2);
  });

  it("two new conversations at once never share a spare", async () => {
    const h = await a2a({ rules, config: { sessions: { spares: 1 } } });
    const { configDir } = h.bench.sandbox;
    const [spare] = await untilProcesses(configDir, (all) => all.length === 1, "the spare");
    const [a, b] = await Promise.all([h.send("First"), h.send("Second")]);
    expect(a.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(b.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(a.contextId).not.toBe(b.contextId);
    const sessions = initSessions(h.frames);
    expect(sessions).toHaveLength(2);
    // One took the spare, the other started a process of its own.
    expect(sessions.filter((id) => id === spare?.sessionId)).toHaveLength(1);
    const live = await runtimeProcesses(configDir);
    const pids = sessions.map((id) => live.find((p) => p.sessionId === id)?.pid);
    expect(new Set(pids).size).toBe(2);
  });

  it("a per-task model reaches the scripted model's request on a spare", async () => {
    const h = await a2a({
      rules,
      config: { sessions: { spares: 1 }, claude: { allowedModels: [OPUS] } },
    });
    const { configDir } = h.bench.sandbox;
    const [spare] = await untilProcesses(configDir, (all) => all.length === 1, "the spare");
    const task = await sendForTask(h.client, withModel(userMessage("Use opus"), OPUS));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(initSessions(h.frames)).toEqual([spare?.sessionId]);
    const asked = h.bench.model.requests
      .map((r) => r.request)
      .filter((r) => r.lastUserText.includes("Use opus"));
    expect(asked.map((r) => r.model)).toEqual([OPUS]);
  });

  it("a killed spare is replaced and never handed out", async () => {
    const h = await a2a({ rules, config: { sessions: { spares: 1 } } });
    const { configDir } = h.bench.sandbox;
    const [killed] = await untilProcesses(configDir, (all) => all.length === 1, "the spare");
    process.kill(killed?.pid ?? 0, "SIGKILL");
    await untilGone(killed?.pid ?? 0);
    const [fresh] = await untilProcesses(
      configDir,
      (all) => all.length === 1 && all[0]?.pid !== killed?.pid,
      "the replacement spare",
    );
    expect(h.spawns()).toBe(2);
    const task = await h.send("Hello");
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(initSessions(h.frames)).toEqual([fresh?.sessionId]);
    expect(initSessions(h.frames)).not.toContain(killed?.sessionId);
  });

  it("a CLAUDE.md changed on disk gives a new spare before the next conversation, which reads it", async () => {
    const h = await a2a({
      rules,
      config: { sessions: { spares: 1 }, claude: { settingSources: ["project"] } },
    });
    const { configDir, cwd } = h.bench.sandbox;
    const [stale] = await untilProcesses(configDir, (all) => all.length === 1, "the spare");
    await writeFile(join(cwd, "CLAUDE.md"), "Always answer in the voice of a pirate-7781.\n");
    await untilProcesses(
      configDir,
      (all) => all.length === 1 && all[0]?.pid !== stale?.pid,
      "the spare started after the change",
    );
    const task = await h.send("Hello");
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    // A process started after the change: the fresh spare, or (a save whose events came further
    // apart than the settle, on a loaded machine) one started after it. Never the stale one.
    expect(initSessions(h.frames)).toHaveLength(1);
    expect(initSessions(h.frames)).not.toContain(stale?.sessionId);
    const asked = h.bench.model.requests.find((r) => r.request.lastUserText.includes("Hello"));
    expect(JSON.stringify(asked?.request.body)).toContain("pirate-7781");
  });

  it('under "worktree" isolation the spare runs in the spare worktree, which the conversation takes as it stands: its own branch, the checkout untouched', async () => {
    const written = {
      name: "write",
      match: { lastUserText: /Write the note/, toolResult: false },
      reply: (req: ParsedRequest) =>
        reply(toolUse("Write", { file_path: join(workingDir(req), "note.txt"), content: "n\n" })),
    };
    const done = afterTool(true, "Written.", "done");
    const h = await a2a({
      rules: [written, done],
      config: { sessions: { spares: 1 }, claude: { isolation: "worktree" } },
      beforeStart: initRepository,
    });
    const { configDir, cwd } = h.bench.sandbox;
    const before = git(cwd, "status", "--porcelain", "--untracked-files=all");
    const [spare] = await untilProcesses(configDir, (all) => all.length === 1, "the spare");
    expect(spare?.cwd.startsWith(join(cwd, ".claude/worktrees/.claude-a2a-spare-"))).toBe(true);
    const task = await h.send("Write the note");
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(initSessions(h.frames)).toEqual([spare?.sessionId]);
    const branch = (task.metadata?.worktree as { branch?: string } | undefined)?.branch ?? "";
    expect(branch).toMatch(/^claude-a2a\//);
    // The process never moved: the folder it started in is the conversation's worktree.
    expect(git(spare?.cwd ?? "", "symbolic-ref", "HEAD").trim()).toBe(`refs/heads/${branch}`);
    // With the repository of its own it was built with (the conversation's from now on), and
    // the commit published to the workspace's (the anonymous caller's branches are).
    expect(git(spare?.cwd ?? "", "rev-parse", "--git-common-dir").trim()).toBe(".git");
    expect(git(spare?.cwd ?? "", "show", `${branch}:note.txt`)).toBe("n\n");
    expect(git(cwd, "show", `${branch}:note.txt`)).toBe("n\n");
    expect(git(cwd, "status", "--porcelain", "--untracked-files=all")).toBe(before);
    expect(git(cwd, "symbolic-ref", "HEAD").trim()).toBe("refs/heads/main");
  });

  it("spares end with their server: at shutdown, and after kill -9 when the next server starts", async () => {
    const p = await serverProcess({ rules, config: { sessions: { spares: 1 } } });
    const { cwd, configDir } = p.bench.sandbox;
    const [spare] = await untilProcesses(configDir, (all) => all.length === 1, "the spare");
    p.server.kill("SIGTERM");
    await p.server.exited;
    await untilGone(spare?.pid ?? 0);

    await p.spawn();
    const [orphan] = await untilProcesses(configDir, (all) => all.length === 1, "the next spare");
    // The pid file the orphan sweep reads lists the spare like any Claude Code child.
    await untilPidFileLists(join(cwd, PIDS_FILE), orphan?.pid ?? 0);
    p.server.kill("SIGKILL");
    await p.server.exited;
    await p.spawn();
    // Idle, the runtime exits when its input closes; had it not, the next server stops it
    // before serving (it is in the pid file). Either way it is gone once that server serves.
    await untilGone(orphan?.pid ?? 0);
    const task = await sendForTask(await p.connect(), userMessage("Hello"));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  }, 180_000);
});
