/**
 * Deliveries that push and open pull requests (docs/delivery.md "Push", "Pull requests") against
 * the REAL Claude Code runtime with a scripted model, real git and a real git remote on loopback
 * (`git http-backend` behind Basic auth), and the loopback forge API: the branch arrives on the
 * remote with the server's token, which never reaches Claude's environment, the worktree's git
 * config, the log or the task; a pull request is opened with the proof of work, then updated; a
 * refused forge token and a remote that is down fail the delivery, the work kept.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import type { ForgeConfig } from "../../src/config/forge-schema.js";
import type { ConfigInput } from "../../src/config/schema.js";
import type { PullRequestRecord, PushRecord } from "../../src/contract/delivery-push.js";
import type { ProofOfWork } from "../../src/contract/delivery.js";
import { startForgeFake, type ForgeFake } from "../support/forge-fake.js";
import { startGitHttpServer, type GitHttpServer } from "../support/git-http-server.js";
import {
  a2a,
  freePort,
  lastStatus,
  reply,
  sendRequest,
  sharedA2A,
  text,
  toolUse,
  userMessage,
  watch,
  type A2AHarness,
  type ParsedRequest,
} from "../support/harness/index.js";
import { withControl } from "../support/harness/control.js";
import { git, initRepository, workingDir } from "../support/harness/git.js";

const PUSH_TOKEN = "push-token-7f3e9a2b1c0d4e5f";
const FORGE_TOKEN = "ghp_deliveryForgeToken0123456789";
const ENV = { A2A_TEST_PUSH_TOKEN: PUSH_TOKEN, A2A_TEST_FORGE_TOKEN: FORGE_TOKEN };
/** Every form the push token travels in (Basic auth's base64 included). */
const SECRETS = [
  PUSH_TOKEN,
  FORGE_TOKEN,
  Buffer.from(`x-access-token:${PUSH_TOKEN}`).toString("base64"),
];

// Listening before the config below is written: the remote and the forge are these.
const root = await mkdtemp(join(tmpdir(), "delivery-push-remote-"));
const remote: GitHttpServer = await startGitHttpServer({ root, token: PUSH_TOKEN });
const bare = remote.createRepo("app");
const forge: ForgeFake = await startForgeFake({ token: FORGE_TOKEN });
beforeAll(() => void Object.assign(process.env, ENV));
afterAll(async () => {
  for (const name of Object.keys(ENV)) delete process.env[name];
  await forge.close();
  await remote.close();
  await rm(root, { recursive: true, force: true });
});

const lines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _enc, done) {
    lines.push(chunk.toString());
    done();
  },
});

const PRESENT = { name: "present", command: "test -f work.txt", timeoutSeconds: 120 };

const GITHUB = (): ForgeConfig => ({
  kind: "github",
  baseUrl: forge.githubUrl,
  repository: "octo/app",
  tokenEnv: "A2A_TEST_FORGE_TOKEN",
});

const configWith = (remoteUrl: string, forgeConfig = GITHUB()): ConfigInput => ({
  // `env` runs without a prompt: Claude sees its whole environment.
  claude: {
    isolation: "worktree",
    allowedTools: ["Bash"],
    delivery: {
      checks: [PRESENT],
      allowedTargets: ["branch", "push", "pull-request"],
      maxRounds: 1,
      remote: { url: remoteUrl, tokenEnv: "A2A_TEST_PUSH_TOKEN" },
      forge: forgeConfig,
    },
  },
});

/** "Ship <n>": Claude runs `env` and `git config --list`, then writes work.txt (content n). */
const rules = [
  {
    name: "look around",
    match: { lastUserText: /Ship (\w+)/, toolResult: false },
    reply: reply(
      toolUse("Bash", {
        command: "env; echo CONFIG-FOLLOWS; git config --list --show-origin",
        description: "Show the environment and the git config",
      }),
    ),
  },
  {
    name: "write the work",
    match: { toolResult: /CONFIG-FOLLOWS/ },
    reply: (req: ParsedRequest) => {
      const round = lastShip(req).replace("Ship ", "") || "x";
      return reply(
        toolUse("Write", { file_path: join(workingDir(req), "work.txt"), content: `${round}\n` }),
      );
    },
  },
  { name: "written", match: { toolResult: /work\.txt/ }, reply: reply(text("Done.")) },
];

/** The last "Ship <n>" prompt in a request (the turn being answered). */
function lastShip(req: ParsedRequest): string {
  return [...JSON.stringify(req.body).matchAll(/Ship \w+/g)].at(-1)?.[0] ?? "";
}

const server = sharedA2A({
  fetchImpl: withControl,
  logger: pino({ level: "info" }, logStream),
  // As a server started with the tokens in its environment: its Claude Code children would
  // inherit them, but for the server keeping its own secrets out.
  serverEnv: ENV,
  config: configWith(remote.urlOf("app")),
  beforeStart: (cwd) => initRepository(cwd),
});

async function deliver(h: A2AHarness, prompt: string, target: string, contextId?: string) {
  const message = {
    ...userMessage(prompt, contextId === undefined ? {} : { contextId }),
    metadata: { deliver: target },
  };
  return watch(h.client.sendMessageStream(sendRequest(message))).done;
}

const taskOf = (events: readonly StreamResponse[]) => {
  const first = events.find((e) => e.payload?.$case === "task");
  if (first?.payload?.$case !== "task") throw new Error("no task event");
  return first.payload.value;
};

const proofOf = (events: readonly StreamResponse[]) => {
  const artifact = events.flatMap((e) =>
    e.payload?.$case === "artifactUpdate" &&
    e.payload.value.artifact?.artifactId === "proof-of-work"
      ? [e.payload.value.artifact]
      : [],
  )[0];
  const data = artifact?.parts[0]?.content;
  return data?.$case === "data"
    ? (data.value as unknown as ProofOfWork & {
        push?: PushRecord;
        pullRequest?: PullRequestRecord;
      })
    : undefined;
};

const stepStatuses = (events: readonly StreamResponse[]) =>
  events.flatMap((e) => {
    const message =
      e.payload?.$case === "statusUpdate" ? e.payload.value.status?.message : undefined;
    const step: unknown = message?.metadata?.step;
    return typeof step === "string" ? [step] : [];
  });

const remoteHead = (branch: string): string =>
  execFileSync("git", ["--git-dir", bare, "rev-parse", `refs/heads/${branch}`], {
    encoding: "utf8",
  }).trim();

/** The files under `dir` holding any of the secrets (grep exits 1 when none does). */
function filesHolding(dir: string): string {
  try {
    return execFileSync("grep", ["-rlF", ...SECRETS.flatMap((s) => ["-e", s]), dir], {
      encoding: "utf8",
    });
  } catch (err) {
    if ((err as { status?: number }).status === 1) return "";
    throw err;
  }
}

const expectNoSecret = (what: string) => {
  for (const secret of SECRETS) expect(what).not.toContain(secret);
};

describe("delivery: push with the server's credentials (real runtime, real git)", () => {
  it("pushes the branch to the remote with the token, which Claude, the worktree, the log and the task never hold", async () => {
    const h = server(rules);
    const events = await deliver(h, "Ship one", "push");
    const end = lastStatus(events);
    expect(end.text).toBe("");
    expect(end.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const proof = proofOf(events);
    expect(proof?.target).toBe("push");
    const branch = proof?.branch ?? "";
    expect(branch).toMatch(/^claude-a2a\//);
    // The branch arrived on the remote, at the task's commit, with the right credential.
    expect(remoteHead(branch)).toBe(proof?.headCommit);
    expect(proof?.push).toMatchObject({
      remote: remote.urlOf("app"),
      ref: `refs/heads/${branch}`,
      commit: proof?.headCommit,
    });
    expect(proof?.push?.durationMs).toBeGreaterThanOrEqual(0);
    expect(remote.requests.some((r) => r.credential === "right" && r.method === "POST")).toBe(true);
    expect(remote.requests.filter((r) => r.credential === "wrong")).toEqual([]);
    expect(stepStatuses(events)).toEqual(["push", "push"]);

    // Claude ran `env` and `git config --list`: neither showed a token nor its variable.
    const seen = h.bench.model.requests
      .map((r) => JSON.stringify(r.request.body))
      .find((b) => b.includes("CONFIG-FOLLOWS") && b.includes("HOME="));
    expect(seen).toBeDefined();
    expectNoSecret(seen ?? "");
    expect(seen).not.toContain("A2A_TEST_PUSH_TOKEN");
    expect(seen).not.toContain("A2A_TEST_FORGE_TOKEN");

    // No file of the workspace (its .git, the worktrees), the runtime's config or HOME holds it.
    expect(filesHolding(h.bench.sandbox.root)).toBe("");
    // The worktree's own git config, as git reads it there.
    const first = h.bench.model.requests[0]?.request;
    expect(first).toBeDefined();
    const config = first === undefined ? "" : git(workingDir(first), "config", "--list");
    expectNoSecret(config);
    // Nor the log, nor the stored task.
    expect(lines.some((l) => l.includes('"outcome":"pushed"'))).toBe(true);
    expectNoSecret(lines.join(""));
    const stored = await h.client.getTask({ tenant: "", id: taskOf(events).id, historyLength: 50 });
    expectNoSecret(JSON.stringify(stored));
    expect(stored.metadata?.delivery).toMatchObject({
      target: "push",
      push: { ref: `refs/heads/${branch}`, commit: proof?.headCommit },
    });
    expect(h.bench.model.unmatched).toEqual([]);
  }, 180_000);

  it("opens a pull request with the proof of work as its body; a second delivery updates it", async () => {
    const h = server(rules);
    const first = await deliver(h, "Ship two\nwith a second line", "pull-request");
    expect(lastStatus(first).state).toBe(TaskState.TASK_STATE_COMPLETED);
    const proof = proofOf(first);
    const branch = proof?.branch ?? "";
    expect(remoteHead(branch)).toBe(proof?.headCommit);
    expect(proof?.pullRequest).toMatchObject({
      forge: "github",
      action: "opened",
      url: expect.stringMatching(/\/pull\/\d+$/) as unknown,
    });
    const opened = forge.changeRequests.get(`octo/app:${branch}`);
    expect(opened).toMatchObject({
      number: proof?.pullRequest?.number,
      branch,
      base: "main",
      title: "Ship two",
    });
    expect(opened?.body).toContain("# Proof of work");
    expect(opened?.body).toContain("### Round 1: present, passed");
    expect(opened?.body).toContain(proof?.headCommit ?? "-");
    expect(stepStatuses(first)).toEqual(["push", "push", "pull-request", "pull-request"]);
    const posted = forge.requests.filter((r) => r.method === "POST");
    expect(posted.at(-1)).toMatchObject({
      path: "/api/v3/repos/octo/app/pulls",
      headers: { authorization: `Bearer ${FORGE_TOKEN}` },
    });

    // The same conversation delivers again: its branch moves on, the open request is updated.
    const contextId = taskOf(first).contextId;
    const second = await deliver(h, "Ship three", "pull-request", contextId);
    expect(lastStatus(second).state).toBe(TaskState.TASK_STATE_COMPLETED);
    const again = proofOf(second);
    expect(again?.branch).toBe(branch);
    expect(remoteHead(branch)).toBe(again?.headCommit);
    expect(again?.pullRequest).toMatchObject({
      number: proof?.pullRequest?.number,
      action: "updated",
    });
    const forBranch = [...forge.changeRequests.values()].filter((r) => r.branch === branch);
    expect(forBranch).toHaveLength(1);
    expect(forBranch[0]?.title).toBe("Ship three");
    expect(forBranch[0]?.body).toContain(again?.headCommit ?? "-");
    expect(
      forge.requests.filter((r) => r.method === "PATCH").map((r) => r.path.replace(/\d+$/, "N")),
    ).toEqual(["/api/v3/repos/octo/app/pulls/N"]);

    const stored = await h.client.getTask({ tenant: "", id: taskOf(second).id, historyLength: 0 });
    expect(stored.metadata?.delivery).toMatchObject({
      target: "pull-request",
      pullRequest: { number: proof?.pullRequest?.number, action: "updated" },
    });
    expectNoSecret(JSON.stringify(stored));
    expectNoSecret(lines.join(""));
  }, 240_000);

  it("a 401 from the forge fails the delivery, naming the variable, with the branch pushed", async () => {
    const h = server(rules);
    forge.refuseAll = true;
    try {
      const events = await deliver(h, "Ship four", "pull-request");
      const end = lastStatus(events);
      expect(end.state).toBe(TaskState.TASK_STATE_FAILED);
      expect(end.text).toMatch(/^Delivery failed: the pull request could not be opened/);
      expect(end.text).toContain("GitHub answered 401: Bad credentials");
      expect(end.text).toContain("The token in A2A_TEST_FORGE_TOKEN was refused");
      expectNoSecret(end.text);
      const branch = /The branch (\S+) is pushed to /.exec(end.text)?.[1] ?? "";
      expect(branch).toMatch(/^claude-a2a\//);
      // The work is on the remote all the same, and on the conversation's branch.
      expect(remoteHead(branch)).toBe(git(h.bench.sandbox.cwd, "rev-parse", branch).trim());
      expect(git(h.bench.sandbox.cwd, "show", `${branch}:work.txt`)).toBe("four\n");
      expect(proofOf(events)).toBeUndefined();
    } finally {
      forge.refuseAll = false;
    }
  }, 180_000);
});

describe("delivery: a GitLab merge request", () => {
  it("is opened with GitLab's shapes and token, into the workspace's branch", async () => {
    const h = await a2a({
      fetchImpl: withControl,
      serverEnv: ENV,
      config: configWith(remote.urlOf("app"), {
        kind: "gitlab",
        baseUrl: forge.gitlabUrl,
        repository: "group/app",
        tokenEnv: "A2A_TEST_FORGE_TOKEN",
      }),
      rules,
      beforeStart: (cwd) => initRepository(cwd),
    });
    const events = await deliver(h, "Ship six", "pull-request");
    expect(lastStatus(events).state).toBe(TaskState.TASK_STATE_COMPLETED);
    const proof = proofOf(events);
    const branch = proof?.branch ?? "";
    expect(remoteHead(branch)).toBe(proof?.headCommit);
    expect(proof?.pullRequest).toMatchObject({ forge: "gitlab", action: "opened" });
    expect(proof?.pullRequest?.url).toMatch(/\/-\/merge_requests\/\d+$/);
    const posted = forge.requests.filter((r) => r.method === "POST").at(-1);
    expect(posted).toMatchObject({
      path: "/api/v4/projects/group%2Fapp/merge_requests",
      headers: { "private-token": FORGE_TOKEN },
      body: { source_branch: branch, target_branch: "main", title: "Ship six" },
    });
    expect((posted?.body as { description?: string }).description).toContain("# Proof of work");
  }, 180_000);
});

describe("delivery: a remote that is down", () => {
  it("ends the delivery failed, saying so, with the work kept on the branch", async () => {
    // A loopback port nothing listens on.
    const closed = await freePort();
    const h = await a2a({
      fetchImpl: withControl,
      serverEnv: ENV,
      config: configWith(`http://127.0.0.1:${closed}/app.git`),
      rules,
      beforeStart: (cwd) => initRepository(cwd),
    });
    const events = await deliver(h, "Ship five", "push");
    const end = lastStatus(events);
    expect(end.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(end.text).toMatch(
      new RegExp(
        `^Delivery failed: Pushing (claude-a2a/\\S+) to http://127\\.0\\.0\\.1:${closed}/app\\.git failed: the remote is unreachable`,
      ),
    );
    const branch = /The work stays on the branch (\S+)\.$/.exec(end.text)?.[1] ?? "";
    expect(git(h.bench.sandbox.cwd, "show", `${branch}:work.txt`)).toBe("five\n");
    expectNoSecret(end.text);
  }, 180_000);
});

describe("delivery: a token that is not set", () => {
  it("stops startup, naming the key and the variable, before any task can do work", async () => {
    const input = configWith(remote.urlOf("app"));
    const delivery = input.claude?.delivery;
    await expect(
      a2a({
        config: {
          claude: {
            ...input.claude,
            delivery: {
              ...delivery,
              remote: { url: remote.urlOf("app"), tokenEnv: "A2A_TEST_UNSET_PUSH_TOKEN" },
            },
          },
        },
        beforeStart: (cwd) => initRepository(cwd),
      }),
    ).rejects.toThrow(
      'claude.delivery.remote.tokenEnv: the environment variable A2A_TEST_UNSET_PUSH_TOKEN is not set, and "push" and "pull-request" deliveries need it',
    );
  }, 60_000);
});
