/**
 * Serving a git repository changes nothing in its `git status`: the server's own files (SQLite
 * store, session map, pid file, an attachment's inbox folder) are in `.git/info/exclude`, and a
 * graceful stop removes the pid file. The real server process, the real runtime.
 */
import { execFile } from "node:child_process";
import { access, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { mappedSessionKeys } from "../support/harness/session-map.js";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { PIDS_FILE } from "../../src/sessions/orphans.js";
import { runCli, says, serverProcess, writeTestConfig } from "../support/harness/index.js";

const run = promisify(execFile);

const git = (cwd: string, ...args: string[]) =>
  run("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd }).then((r) => r.stdout);

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** Polls `check` until it holds (bounded: a failing test says what it waited for). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("a served git repository", () => {
  it("shows nothing in git status after a start, a task with an attachment, and a stop", async () => {
    const h = await serverProcess({
      deferStart: true,
      rules: [says("Read the attachment", "Read it.")],
    });
    const bench = h.bench;
    const repo = bench.sandbox.cwd;
    // The user's repository, its config file committed: the server adds nothing beside it.
    await writeTestConfig(repo);
    await writeFile(join(repo, "README.md"), "# project\n");
    await git(repo, "init", "--quiet");
    await git(repo, "add", ".");
    await git(repo, "commit", "--quiet", "-m", "init");
    const attachment = join(bench.sandbox.root, "notes.txt");
    await writeFile(attachment, "some notes\n");

    // Its config is the committed one, written again as it is.
    const server = await h.spawn();
    expect(await git(repo, "status", "--porcelain", "--untracked-files=all")).toBe("");

    const env = { A2A_URL: server.url, XDG_CONFIG_HOME: bench.sandbox.home };
    const sent = await runCli(["send", "--file", attachment, "Read the attachment"], { env });
    expect(sent.err).toBe("");
    expect(sent.code).toBe(0);
    // The server's files are there, and hidden: the store (with the session map), the pid file,
    // the inbox.
    expect(await exists(join(repo, ".claude", "claude-a2a.db"))).toBe(true);
    expect(await mappedSessionKeys(repo)).toHaveLength(1);
    // The pid file is written as the session starts, beside the answer: waited for.
    await until(() => exists(join(repo, PIDS_FILE)), "the pid file");
    expect(await exists(join(repo, ".claude", "a2a-inbox"))).toBe(true);
    expect(await git(repo, "status", "--porcelain", "--untracked-files=all")).toBe("");
    expect(await readFile(join(repo, ".git", "info", "exclude"), "utf8")).toContain(
      "/.claude/claude-a2a.pids.json*\n",
    );

    server.kill("SIGTERM");
    expect((await server.exited).code).toBe(0);
    expect(await exists(join(repo, PIDS_FILE))).toBe(false);
    expect(await git(repo, "status", "--porcelain", "--untracked-files=all")).toBe("");
  });
});
