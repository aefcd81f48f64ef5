import { mkdir, readFile } from "node:fs/promises";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { join } from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { remoteSchema } from "../../../src/config/forge-schema.js";
import { pushBranch } from "../../../src/delivery/push/push-branch.js";
import { git, initRepository } from "../../support/harness/git.js";
import { tempDir, type TempDir } from "../../support/harness/temp.js";
import { startGitHttpServer, type GitHttpServer } from "../../support/git-http-server.js";

/** Real git, pushing to a real git remote over HTTP on 127.0.0.1 that wants the token. */

const TOKEN = "push-token-5f1e2d3c4b5a6978";
const env = { ...process.env, PUSH_TOKEN: TOKEN, WRONG_TOKEN: "a-wrong-token-1234" };

let tmp: TempDir;
let remote: GitHttpServer;
let work: string;
const logLines: string[] = [];
const logger = pino({ level: "debug" }, { write: (line: string) => logLines.push(line) });

beforeAll(async () => {
  tmp = await tempDir("claude-a2a-push-");
  remote = await startGitHttpServer({ root: tmp.path, token: TOKEN });
  work = join(tmp.path, "work");
  await mkdir(work);
  await initRepository(work);
  git(work, "checkout", "-q", "-b", "claude-a2a/fix");
  git(work, "commit", "-q", "--allow-empty", "-m", "the fix");
}, 30_000);

afterAll(async () => {
  await remote.close();
  await tmp.close();
});

const remoteOf = (repo: string, tokenEnv = "PUSH_TOKEN") =>
  remoteSchema.parse({ url: remote.urlOf(repo), tokenEnv });

describe("pushBranch", () => {
  it("pushes the branch with the token, which lands in no config, error or log line", async () => {
    const bare = remote.createRepo("ok");
    const result = await pushBranch({
      repoDir: work,
      remote: remoteOf("ok"),
      branch: "claude-a2a/fix",
      env,
      logger,
    });
    expect(result).toEqual({ ok: true, branch: "claude-a2a/fix", url: remote.urlOf("ok") });
    expect(git(bare, "rev-parse", "refs/heads/claude-a2a/fix").trim()).toBe(
      git(work, "rev-parse", "HEAD").trim(),
    );
    // The credential reached the remote (the push's requests came with it)…
    expect(
      remote.requests.some((r) => r.credential === "right" && r.path.endsWith("/git-receive-pack")),
    ).toBe(true);
    // …and nowhere else.
    const config = await readFile(join(work, ".git", "config"), "utf8");
    const basic = Buffer.from(`x-access-token:${TOKEN}`).toString("base64");
    for (const text of [config, logLines.join("")]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(basic);
    }
    expect(logLines.join("")).toContain('"outcome":"pushed"');
  }, 30_000);

  it("a wrong token is a clear error, and nothing is pushed", async () => {
    const bare = remote.createRepo("wrong");
    const result = await pushBranch({
      repoDir: work,
      remote: remoteOf("wrong", "WRONG_TOKEN"),
      branch: "claude-a2a/fix",
      env,
      logger,
    });
    expect(result).toMatchObject({ ok: false, failure: "unauthorized" });
    if (result.ok) return;
    expect(result.message).toMatch(
      /^Pushing claude-a2a\/fix to http:\/\/127\.0\.0\.1:\d+\/wrong\.git failed: the remote refused the token in WRONG_TOKEN \(401\)/,
    );
    expect(git(bare, "for-each-ref").trim()).toBe("");
    expect(
      remote.requests
        .filter((r) => r.path.startsWith("/wrong"))
        .every((r) => r.credential !== "right"),
    ).toBe(true);
    for (const text of [result.message, logLines.join("")]) {
      expect(text).not.toContain(env.WRONG_TOKEN);
      expect(text).not.toContain(
        Buffer.from(`x-access-token:${env.WRONG_TOKEN}`).toString("base64"),
      );
    }
  }, 30_000);

  it("a remote that is down is a clear error", async () => {
    const down = await startGitHttpServer({ root: tmp.path, token: TOKEN });
    const url = down.urlOf("ok");
    await down.close();
    const result = await pushBranch({
      repoDir: work,
      remote: remoteSchema.parse({ url, tokenEnv: "PUSH_TOKEN" }),
      branch: "claude-a2a/fix",
      env,
    });
    expect(result).toMatchObject({ ok: false, failure: "unreachable" });
    if (!result.ok) {
      expect(result.message).toContain(
        `Pushing claude-a2a/fix to ${url} failed: the remote is unreachable`,
      );
      expect(result.message).not.toContain(TOKEN);
    }
  }, 30_000);

  it("a push the task's end aborts is stopped at once, not left to its time limit", async () => {
    // A remote that takes the connection and never answers: only the abort can end the push.
    const sockets: Socket[] = [];
    let connected!: () => void;
    const reached = new Promise<void>((resolve) => (connected = resolve));
    const silent = createServer((socket) => {
      sockets.push(socket);
      connected();
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/silent.git`;
    const stop = new AbortController();
    try {
      const pushing = pushBranch({
        repoDir: work,
        remote: remoteSchema.parse({ url, tokenEnv: "PUSH_TOKEN" }),
        branch: "claude-a2a/fix",
        env,
        timeoutMs: 600_000,
        signal: stop.signal,
      });
      await reached;
      stop.abort();
      const result = await pushing;
      expect(result).toMatchObject({ ok: false, failure: "canceled" });
      if (!result.ok) {
        expect(result.message).toBe(
          `Pushing claude-a2a/fix to ${url} failed: the task ended first, and the push was stopped.`,
        );
      }
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 30_000);

  it("a remote branch with other commits is refused as non-fast-forward, not overwritten", async () => {
    const bare = remote.createRepo("diverged");
    const other = join(tmp.path, "other");
    git(tmp.path, "clone", "-q", bare, other);
    git(other, "checkout", "-q", "-b", "claude-a2a/fix");
    git(other, "commit", "-q", "--allow-empty", "-m", "someone else's");
    git(other, "push", "-q", "origin", "claude-a2a/fix");
    const theirs = git(bare, "rev-parse", "refs/heads/claude-a2a/fix").trim();
    const result = await pushBranch({
      repoDir: work,
      remote: remoteOf("diverged"),
      branch: "claude-a2a/fix",
      env,
    });
    expect(result).toMatchObject({ ok: false, failure: "non-fast-forward" });
    expect(git(bare, "rev-parse", "refs/heads/claude-a2a/fix").trim()).toBe(theirs);
  }, 30_000);

  it("refuses an unset token variable or an option-like branch before running git", async () => {
    const before = remote.requests.length;
    expect(
      await pushBranch({ repoDir: work, remote: remoteOf("ok", "UNSET_VAR"), branch: "x", env }),
    ).toEqual({
      ok: false,
      failure: "config",
      message: "The environment variable UNSET_VAR (tokenEnv) is not set.",
    });
    expect(
      await pushBranch({ repoDir: work, remote: remoteOf("ok"), branch: "--force", env }),
    ).toMatchObject({ ok: false, failure: "config" });
    expect(remote.requests.length).toBe(before);
  });
});
