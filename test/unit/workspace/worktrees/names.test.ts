import { posix } from "node:path";
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  anchoredPattern,
  branchName,
  commitMessage,
  EXCLUDE_MARKER,
  excludeMarker,
  excludePatterns,
  resolveServerPath,
  readablePart,
  withExcludes,
  worktreeName,
} from "../../../../src/workspace/worktrees/names.js";
import { parseNameStatus } from "../../../../src/workspace/worktrees/commit.js";
import { gitEnv } from "../../../../src/workspace/worktrees/git.js";
import { SerialQueues } from "../../../../src/workspace/worktrees/serial-queue.js";

/** git's own verdict on a branch name. */
const validRef = (name: string): boolean => {
  try {
    execFileSync("git", ["check-ref-format", "--branch", name], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
};

describe("worktree and branch names", () => {
  it.each([
    ["ctx-1", "ctx-1"],
    ["a b/c:d", "a-b-c-d"],
    ["..hidden", "hidden"],
    ["-dash", "dash"],
    ["x..y", "x.y"],
    ["name.lock", "name"],
    ["trailing.", "trailing"],
    ["@{upstream}", "upstream"],
    ["日本語", "context"],
    ["", "context"],
    ["a".repeat(80), "a".repeat(48)],
  ])("%j reads as %j", (contextId, readable) => {
    expect(readablePart(contextId)).toBe(readable);
  });

  it.each(["ctx", "a b", "..", "x.lock", "~^:?*[\\", "@{", "-", "a/b/../c", "日本語", "."])(
    "the branch of %j is a valid ref",
    (contextId) => {
      expect(validRef(branchName(worktreeName(`token:ci|${contextId}`, contextId)))).toBe(true);
    },
  );

  it("is stable per conversation, and two callers' contexts of one id differ", () => {
    const a = worktreeName("token:a|ctx", "ctx");
    expect(worktreeName("token:a|ctx", "ctx")).toBe(a);
    expect(worktreeName("token:b|ctx", "ctx")).not.toBe(a);
    expect(a).toMatch(/^ctx-[0-9a-f]{10}$/);
    expect(branchName(a)).toBe(`claude-a2a/${a}`);
  });

  it("names the task (and a state other than completed) in the commit message", () => {
    expect(commitMessage("t1", "completed").split("\n")[0]).toBe("claude-a2a: task t1");
    expect(commitMessage("t1", "failed").split("\n")[0]).toBe("claude-a2a: task t1 (failed)");
  });
});

describe("the exclude file", () => {
  it("gets the missing patterns under one marker, once", () => {
    const first = withExcludes("# git's own\n*.o", ["/.claude/a2a-worktrees/", "/x"]);
    expect(first).toBe(`# git's own\n*.o\n${EXCLUDE_MARKER}\n/.claude/a2a-worktrees/\n/x\n`);
    expect(withExcludes(first ?? "", ["/.claude/a2a-worktrees/", "/x"])).toBeUndefined();
    expect(withExcludes(first ?? "", ["/y"])).toBe(`${first ?? ""}/y\n`);
    expect(withExcludes("", ["/x"])).toBe(`${EXCLUDE_MARKER}\n/x\n`);
  });

  it("heads the block with the mode that wrote it", () => {
    expect(excludeMarker("shared")).toBe("# claude-a2a (claude.isolation: shared)");
    expect(EXCLUDE_MARKER).toBe("# claude-a2a (claude.isolation: worktree)");
    const shared = withExcludes("", ["/.claude/claude-a2a.db*"], "shared") ?? "";
    expect(shared).toBe("# claude-a2a (claude.isolation: shared)\n/.claude/claude-a2a.db*\n");
    // Served with worktrees later: its own heading over what it adds.
    expect(withExcludes(shared, ["/.claude/worktrees/"], "worktree")).toBe(
      `${shared}${EXCLUDE_MARKER}\n/.claude/worktrees/\n`,
    );
  });

  it("anchors patterns and escapes glob characters", () => {
    expect(anchoredPattern(".claude/a2a-worktrees", true)).toBe("/.claude/a2a-worktrees/");
    expect(anchoredPattern("a[1]*.db", false)).toBe("/a\\[1\\]\\*.db");
  });
});

describe("git output and environment", () => {
  it("reads --name-status -z", () => {
    expect(parseNameStatus("A\0new.txt\0M\0dir/a b.txt\0D\0gone\0T\0link\0")).toEqual([
      { path: "new.txt", change: "added" },
      { path: "dir/a b.txt", change: "modified" },
      { path: "gone", change: "deleted" },
      { path: "link", change: "type_changed" },
    ]);
    expect(parseNameStatus("")).toEqual([]);
  });

  it("drops every GIT_* variable of the server's environment", () => {
    const env = gitEnv({
      PATH: "/bin",
      GIT_DIR: "/elsewhere",
      GIT_INDEX_FILE: "x",
      GIT_CONFIG_PARAMETERS: "'core.hookspath'='/evil'",
      GIT_CONFIG_COUNT: "1",
      GIT_EXEC_PATH: "/evil",
      GIT_CONFIG_NOSYSTEM: "0",
      HOME: "/h",
    });
    expect(env).toEqual({
      PATH: "/bin",
      HOME: "/h",
      // No system or global config file is read (the operator's may name programs too).
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_TERMINAL_PROMPT: "0",
      GIT_OPTIONAL_LOCKS: "0",
    });
  });
});

describe("SerialQueues", () => {
  it("runs one key's jobs one at a time, in order, other keys alongside; a failure fails only its job", async () => {
    const queues = new SerialQueues();
    const log: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const a1 = queues.run("a", async () => {
      log.push("a1 start");
      await held;
      log.push("a1 end");
    });
    const a2 = queues.run("a", () => {
      log.push("a2");
      return Promise.reject(new Error("a2 fails"));
    });
    const a3 = queues.run("a", () => {
      log.push("a3");
      return Promise.resolve(3);
    });
    const b1 = queues.run("b", () => {
      log.push("b1");
      return Promise.resolve(1);
    });
    await b1;
    expect(log).toEqual(["a1 start", "b1"]);
    release();
    await a1;
    await expect(a2).rejects.toThrow("a2 fails");
    await expect(a3).resolves.toBe(3);
    expect(log).toEqual(["a1 start", "b1", "a1 end", "a2", "a3"]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(queues.size).toBe(0);
  });
});

describe("excludePatterns: the server's paths as anchored exclude lines", () => {
  it.each([
    ["a folder", "/r/ws/.claude/a2a-inbox/", ["/ws/.claude/a2a-inbox/"]],
    ["a file and its siblings", "/r/ws/.claude/claude-a2a.db*", ["/ws/.claude/claude-a2a.db*"]],
    ["a file", "/r/x.json", ["/x.json"]],
    ["a glob character, escaped", "/r/a[1].db*", ["/a\\[1\\].db*"]],
    ["outside the repository: left out", "/elsewhere/tasks.db*", []],
    ["the top itself: left out", "/r/", []],
  ])("%s", (_what, path, expected) => {
    expect(excludePatterns("/r", [path], posix)).toEqual(expected);
  });

  it("resolves a server path against the workspace, keeping its marker", () => {
    expect(resolveServerPath("/r/ws", ".claude/a2a-inbox/")).toBe("/r/ws/.claude/a2a-inbox/");
    expect(resolveServerPath("/r/ws", ".claude/claude-a2a.db*")).toBe(
      "/r/ws/.claude/claude-a2a.db*",
    );
    expect(resolveServerPath("/r/ws", "/abs/tasks.db")).toBe("/abs/tasks.db");
  });
});
