/**
 * A trigger's result comment (issue 51 item 5, docs/triggers.md "Result comments"): a GitHub
 * issues/labeled delivery starts a task on the real runtime; when it ends, the loopback forge
 * API gets one comment on that issue, in GitHub's documented shape, with the server's token,
 * the final answer and the task's console link. The token never reaches Claude's environment.
 */
import { createHmac, randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startForgeFake, type ForgeFake } from "../support/forge-fake.js";
import { afterTool, reply, sharedA2A, toolUse } from "../support/harness/index.js";

const SECRET = "result-comment-webhook-secret";
const FORGE_TOKEN = "ghp_resultCommentForgeToken0123456789";
const ENV = { A2A_TEST_RC_SECRET: SECRET, A2A_TEST_RC_FORGE_TOKEN: FORGE_TOKEN };

// Listening before the config below is written: the trigger's forge is this fake.
const fake: ForgeFake = await startForgeFake({ token: FORGE_TOKEN });
beforeAll(() => void Object.assign(process.env, ENV));
afterAll(async () => {
  for (const name of Object.keys(ENV)) delete process.env[name];
  await fake.close();
});

const lines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _enc, done) {
    lines.push(chunk.toString());
    done();
  },
});

const server = sharedA2A({
  logger: pino({ level: "info" }, logStream),
  // As a server started with the tokens in its environment: its Claude Code children would
  // inherit them, but for the server keeping its own secrets out.
  serverEnv: ENV,
  config: {
    // `env` runs without a prompt (a trigger's prompts are denied): Claude sees its environment.
    claude: { allowedTools: ["Bash"] },
    triggers: {
      fix: {
        kind: "webhook",
        verify: "github",
        secretEnv: "A2A_TEST_RC_SECRET",
        filters: { events: ["issues"], actions: ["labeled"], labels: ["claude"] },
        prompt: "Fix issue #{{issue.number}}: {{issue.title}}",
        allowUnsandboxed: true,
        result: {
          forge: {
            kind: "github",
            baseUrl: fake.githubUrl,
            repository: "octo/widgets",
            tokenEnv: "A2A_TEST_RC_FORGE_TOKEN",
          },
        },
      },
    },
  },
});

function delivery(body: string, id: string): Record<string, string> {
  return {
    "content-type": "application/json",
    "x-github-event": "issues",
    "x-github-delivery": id,
    "x-hub-signature-256": `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`,
  };
}

/** An `issues` `labeled` delivery in GitHub's documented shape. */
const labeled = (number: number, title: string) =>
  JSON.stringify({
    action: "labeled",
    issue: {
      number,
      title,
      body: "It falls over.",
      state: "open",
      labels: [{ id: 1, name: "claude" }],
      user: { login: "octocat", id: 1 },
      author_association: "OWNER",
    },
    label: { id: 1, name: "claude" },
    repository: { id: 7, name: "widgets", full_name: "octo/widgets" },
    sender: { login: "octocat", id: 1 },
  });

describe("result comments", () => {
  it("posts one comment with the final answer and the console link, with the server's token", async () => {
    const h = server([
      {
        match: { lastUserText: "Gear slips", toolResult: false },
        reply: reply(toolUse("Bash", { command: "env", description: "Show the environment" })),
      },
      afterTool(/HOME=/, "Tightened the gear: it no longer slips."),
    ]);
    const body = labeled(42, "Gear slips");
    const res = await fetch(`${h.server.url}/hooks/fix`, {
      method: "POST",
      headers: delivery(body, randomUUID()),
      body,
    });
    expect(res.status).toBe(202);
    const { taskId } = (await res.json()) as { taskId: string };

    const comment = await fake.waitForComment();
    const posted = fake.requests.filter((r) => r.method === "POST");
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({
      path: "/api/v3/repos/octo/widgets/issues/42/comments",
      headers: {
        authorization: `Bearer ${FORGE_TOKEN}`,
        accept: "application/vnd.github+json",
        "x-github-api-version": "2022-11-28",
        "content-type": "application/json",
      },
    });
    expect(Object.keys(posted[0]?.body as object)).toEqual(["body"]);
    expect(comment).toMatchObject({ repository: "octo/widgets", number: 42, token: FORGE_TOKEN });
    expect(comment.body).toContain("The task started by the trigger `fix` completed.");
    expect(comment.body).toContain("Tightened the gear: it no longer slips.");
    expect(comment.body).toContain(
      `[Open the task in the console](${h.config.server.publicUrl}/console/#task=${taskId})`,
    );

    // Claude ran `env`, and the tokens were not in what it saw.
    const toolOutput = h.bench.model.requests
      .map((r) => JSON.stringify(r.request.body))
      .find((b) => b.includes("HOME="));
    expect(toolOutput).toBeDefined();
    expect(toolOutput).not.toContain(FORGE_TOKEN);
    expect(toolOutput).not.toContain(SECRET);
    expect(toolOutput).not.toContain("A2A_TEST_RC_FORGE_TOKEN");
    // One log line says it was posted; none holds the token.
    await expect
      .poll(() => lines.some((l) => l.includes('"outcome":"commented"') && l.includes(taskId)), {
        timeout: 10_000,
      })
      .toBe(true);
    expect(lines.join("")).not.toContain(FORGE_TOKEN);
    expect(h.bench.model.unmatched).toEqual([]);
  }, 60_000);
});
