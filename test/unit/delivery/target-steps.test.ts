import { describe, expect, it } from "vitest";
import { claudeEnvironment, everyWorkspaceSecret } from "../../../src/app/session-factory.js";
import { resolveConfig } from "../../../src/config/load.js";
import { PUSH_TEXT, TITLE_MAX } from "../../../src/contract/delivery-push.js";
import type { ProofOfWork } from "../../../src/contract/delivery.js";
import { BODY_MAX, requestBody, requestTitle } from "../../../src/delivery/target/request-text.js";

/** The pure parts of the targets push and pull-request (docs/delivery.md "Push", "Pull requests"). */

const proof = (outputTail = "ok"): ProofOfWork => ({
  target: "pull-request",
  branch: "claude-a2a/fix-parser",
  baseCommit: "a".repeat(40),
  headCommit: "b".repeat(40),
  files: [{ path: "src/parser.ts", change: "modified" }],
  checks: [
    {
      round: 1,
      check: "test",
      command: "npm test",
      result: "passed",
      exitCode: 0,
      durationMs: 1200,
      outputTail,
    },
  ],
  rounds: 1,
  review: [],
});

describe("a pull request's title (requestTitle)", () => {
  it.each([
    ["the first line", "Fix the date parser\nIt fails on leap years.", "Fix the date parser"],
    [
      "the first non-empty line, spaces folded",
      "\n\n   Fix   the\tparser  \nmore",
      "Fix the parser",
    ],
    ["the branch when the prompt has no text", "  \n ", "Work of claude-a2a/x"],
  ])("is %s", (_name, prompt, title) => {
    expect(requestTitle(prompt, "claude-a2a/x")).toBe(title);
  });

  it("is capped, ending with an ellipsis", () => {
    const title = requestTitle("Refactor ".repeat(30), "b");
    expect(title.length).toBe(TITLE_MAX);
    expect(title.endsWith("…")).toBe(true);
  });
});

describe("a pull request's body (requestBody)", () => {
  it("is the proof of work's Markdown, after a line naming the branch and its head", () => {
    const body = requestBody(proof());
    expect(body.split("\n")[0]).toBe(
      "Opened by claude-a2a from the conversation's branch `claude-a2a/fix-parser` " +
        "(bbbbbbbbbbbb), after its delivery checks went green.",
    );
    expect(body).toContain("# Proof of work");
    expect(body).toContain("### Round 1: test, passed");
    expect(body).toContain("- `src/parser.ts` (modified)");
  });

  it("is cut under the forges' limit, saying so", () => {
    const body = requestBody(proof("x".repeat(100_000)));
    expect(body.length).toBeLessThanOrEqual(BODY_MAX + 100);
    expect(body).toContain("(cut: the whole proof of work is the task's artifact)");
  });
});

describe("the texts of push and pull-request (PUSH_TEXT)", () => {
  it("say where the work is when the push fails", () => {
    expect(
      PUSH_TEXT.pushFailed(
        "Pushing b to https://git.example/a.git failed: the remote is unreachable.",
        "b",
      ),
    ).toBe(
      "Delivery failed: Pushing b to https://git.example/a.git failed: the remote is " +
        "unreachable. The work stays on the branch b.",
    );
  });

  it("say the branch is pushed when the pull or merge request fails", () => {
    expect(PUSH_TEXT.requestFailed("github", "GitHub answered 401.", "b", "https://r")).toBe(
      "Delivery failed: the pull request could not be opened or updated: GitHub answered 401. " +
        "The branch b is pushed to https://r.",
    );
    expect(PUSH_TEXT.requestFailed("gitlab", "x", "b", "r")).toContain("the merge request");
  });

  it("name a pull request by #, a merge request by !", () => {
    expect(
      PUSH_TEXT.opened("github", { number: 4, url: "https://h/pull/4", action: "opened" }),
    ).toBe("Delivery: opened pull request #4 (https://h/pull/4).");
    expect(PUSH_TEXT.opened("gitlab", { number: 2, url: "", action: "updated" })).toBe(
      "Delivery: updated merge request !2.",
    );
    expect(PUSH_TEXT.pushed("b", "c".repeat(40), "https://r", 1500)).toBe(
      "Delivery: pushed b (cccccccccccc) to https://r (1.5 s).",
    );
  });
});

describe("the delivery's tokens are the server's secrets (claudeEnvironment)", () => {
  it("keeps the remote's and the forge's token variables out of Claude's environment", () => {
    const config = resolveConfig(
      {
        claude: {
          isolation: "worktree",
          delivery: {
            allowedTargets: ["branch", "pull-request"],
            remote: { url: "https://git.example/a.git", tokenEnv: "PUSH_TOKEN" },
            forge: { kind: "github", repository: "o/a", tokenEnv: "FORGE_TOKEN" },
          },
        },
      },
      { file: "/w/claude-a2a.config.json", startDir: "/w" },
    );
    const env = { PATH: "/bin", PUSH_TOKEN: "p", FORGE_TOKEN: "f" };
    expect(claudeEnvironment(config, env)).toEqual({ PATH: "/bin" });
  });

  it("keeps every workspace's tokens out of each workspace's Claude", () => {
    const config = resolveConfig(
      {
        workspaces: {
          api: {
            cwd: "/srv/api",
            claude: {
              isolation: "worktree",
              delivery: {
                allowedTargets: ["branch", "push"],
                remote: { url: "https://git.example/a.git", tokenEnv: "API_PUSH_TOKEN" },
              },
            },
          },
          web: { cwd: "/srv/web" },
        },
      },
      { file: "/w/claude-a2a.config.json", startDir: "/w" },
    );
    const secrets = everyWorkspaceSecret(config);
    expect(secrets).toContain("API_PUSH_TOKEN");
    // The web workspace has no delivery of its own: its Claude still never gets api's token.
    const web = { ...config, claude: { ...config.claude, delivery: undefined } };
    const env = { PATH: "/bin", API_PUSH_TOKEN: "p" };
    expect(claudeEnvironment(web, env)).toEqual(env);
    expect(claudeEnvironment(web, env, secrets)).toEqual({ PATH: "/bin" });
  });
});
