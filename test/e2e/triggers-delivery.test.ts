/**
 * A trigger's task with a delivery (issue 51, docs/triggers.md "Deliveries"): a signed webhook of
 * a trigger with `deliver` starts a task in a worktree workspace; the firing sends it as the
 * message's `metadata.deliver` with the control extension activated, the workspace's check runs
 * in the conversation's worktree, and the task ends completed with its proof of work, whose head
 * is a commit on its branch. Real runtime, scripted model, real git, HTTP on 127.0.0.1.
 */
import { createHmac, randomUUID } from "node:crypto";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TaskState, type Task } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { connect } from "../../src/client/connect.js";
import type { ProofOfWork } from "../../src/contract/delivery.js";
import {
  a2a,
  getTask,
  reply,
  text,
  tokenEntries,
  toolUse,
  type ParsedRequest,
} from "../support/harness/index.js";
import { git, initRepository, workingDir } from "../support/harness/git.js";

const TIMEOUT = 120_000;
const SECRET_ENV = "A2A_TEST_DELIVER_SECRET";
const SECRET = "deliver-secret-value";
const OPS = "ops-token-0123456789";

beforeAll(() => void (process.env[SECRET_ENV] = SECRET));
afterAll(() => void delete process.env[SECRET_ENV]);

const TEST = {
  name: "test",
  command: "test -f fixed.txt || { echo 'fixed.txt is missing'; exit 1; }",
  timeoutSeconds: 120,
};
// Never asked for by the trigger: it would fail the task if it ran.
const NEVER = { name: "never", command: "echo never green; exit 2", timeoutSeconds: 120 };

async function deliver(url: string, title: string): Promise<Response> {
  const body = JSON.stringify({
    action: "opened",
    issue: { number: 3, title, body: "", labels: [], author_association: "OWNER" },
    repository: { full_name: "octo/widgets" },
  });
  return fetch(`${url}/hooks/fix`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": "issues",
      "x-github-delivery": randomUUID(),
      "x-hub-signature-256": `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`,
    },
    body,
  });
}

/** The conversation repository under the workspace's worktree folder that has `branch`. */
async function repositoryWith(cwd: string, branch: string): Promise<string> {
  const dir = join(cwd, ".claude", "worktrees");
  for (const name of await readdir(dir)) {
    try {
      git(join(dir, name), "rev-parse", "--verify", "--quiet", branch);
      return join(dir, name);
    } catch {
      // Not this one.
    }
  }
  throw new Error(`no repository under ${dir} has ${branch}`);
}

/** The task once it has ended (a bounded wait on the stored task, not a sleep to tune). */
async function ended(ops: Client, id: string): Promise<Task> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const task = await getTask(ops, id);
    const state = task.status?.state;
    if (
      state === TaskState.TASK_STATE_COMPLETED ||
      state === TaskState.TASK_STATE_FAILED ||
      state === TaskState.TASK_STATE_CANCELED
    ) {
      return task;
    }
    if (Date.now() > deadline) throw new Error(`task ${id} stayed ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("a trigger's delivery", () => {
  it(
    "a webhook with deliver runs its check in the worktree and ends completed with the proof of work on its branch",
    async () => {
      const h = await a2a({
        config: {
          server: { auth: { tokens: tokenEntries({ ops: OPS }) }, operators: ["ops"] },
          claude: {
            isolation: "worktree",
            delivery: { checks: [TEST, NEVER], allowedTargets: ["branch"], maxRounds: 0 },
          },
          triggers: {
            fix: {
              kind: "webhook",
              verify: "github",
              secretEnv: SECRET_ENV,
              prompt: "{{issue.title}}",
              allowUnsandboxed: true,
              deliver: { target: "branch", checks: ["test"] },
            },
          },
        },
        rules: [
          {
            name: "write the fix",
            match: { lastUserText: /Write the fix/, toolResult: false },
            reply: (req: ParsedRequest) =>
              reply(
                toolUse("Write", {
                  file_path: join(workingDir(req), "fixed.txt"),
                  content: "ok\n",
                }),
              ),
          },
          { name: "wrote", match: { toolResult: /fixed\.txt/ }, reply: reply(text("Wrote it.")) },
        ],
        beforeStart: (cwd) => initRepository(cwd),
      });
      const ops = await connect(h.server.url, OPS);
      if (!ops) throw new Error("no client");

      const res = await deliver(h.server.url, "Write the fix");
      expect(res.status).toBe(202);
      const { taskId } = (await res.json()) as { taskId: string };
      const task = await ended(ops, taskId);
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(task.metadata).toMatchObject({
        origin: "trigger",
        trigger: "fix",
        delivery: { target: "branch", rounds: 1 },
      });
      // The firing's message asked as a client would.
      expect(task.history[0]?.metadata).toMatchObject({
        deliver: { target: "branch", checks: ["test"] },
      });

      const artifact = task.artifacts.find((a) => a.artifactId === "proof-of-work");
      const data = artifact?.parts[0]?.content;
      const proof = data?.$case === "data" ? (data.value as unknown as ProofOfWork) : undefined;
      expect(proof?.target).toBe("branch");
      // Only the check the trigger names ran, once, green.
      expect(proof?.checks.map((c) => [c.round, c.check, c.result])).toEqual([
        [1, "test", "passed"],
      ]);
      expect(proof?.files).toEqual([{ path: "fixed.txt", change: "added" }]);
      // A caller's branch stays in its conversation's repository, under claude.worktreeDir.
      const repo = await repositoryWith(h.bench.sandbox.cwd, proof?.branch ?? "");
      expect(git(repo, "rev-parse", proof?.branch ?? "").trim()).toBe(proof?.headCommit);
      expect(git(repo, "show", `${proof?.headCommit}:fixed.txt`)).toBe("ok\n");
      expect(h.bench.model.unmatched).toEqual([]);
    },
    TIMEOUT,
  );
});
