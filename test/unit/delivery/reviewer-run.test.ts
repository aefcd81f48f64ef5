import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ClaudeSession, RunStreamEvent, RunUsage } from "../../../src/claude/index.js";
import { runReview } from "../../../src/delivery/review/reviewer.js";
import { git, initRepository } from "../../support/harness/git.js";

/**
 * One review run (reviewer.ts) over a real git repository, with the reviewer's session scripted:
 * what its prompt holds, the answer asked once more when unreadable, its usage counted, and its
 * session closed.
 */
const USAGE: RunUsage = {
  costUsd: 0.001,
  inputTokens: 10,
  outputTokens: 20,
  cacheReadTokens: 0,
  cacheCreationTokens: 0,
  models: {},
  modelTurns: 1,
  durationMs: 5,
};

/** A session answering each prompt with the next of `answers`; it records prompts and closes. */
function scripted(answers: string[]) {
  const prompts: string[] = [];
  let closed = 0;
  const session = {
    stream(prompt: string) {
      prompts.push(prompt);
      const text = answers.shift() ?? "";
      const events: RunStreamEvent[] = [
        {
          kind: "assistant",
          messageId: "m",
          parentToolUseId: null,
          content: [{ type: "text", text }],
          aborted: false,
          userMessageUuids: [],
        } as unknown as RunStreamEvent,
        { kind: "result", usage: USAGE } as unknown as RunStreamEvent,
        { kind: "run_completed", runId: "r", text },
      ];
      return {
        runId: "r",
        async *[Symbol.asyncIterator]() {
          for (const e of events) yield await Promise.resolve(e);
        },
      };
    },
    close: () => {
      closed += 1;
      return Promise.resolve();
    },
  };
  return {
    prompts,
    closed: () => closed,
    sessions: () => Promise.resolve(session as unknown as ClaudeSession),
  };
}

let dir = "";
afterEach(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true });
  dir = "";
});

async function repository(): Promise<{ cwd: string; base: string }> {
  dir = await mkdtemp(join(tmpdir(), "review-run-"));
  await initRepository(dir, { "base.txt": "base\n" });
  const base = git(dir, "rev-parse", "HEAD").trim();
  await writeFile(join(dir, "base.txt"), "changed\n");
  await writeFile(join(dir, "new.txt"), "brand new\n");
  return { cwd: dir, base };
}

const request = (cwd: string, base: string, usage: RunUsage[]) => ({
  cwd,
  baseCommit: base,
  round: 2,
  owner: undefined,
  signal: new AbortController().signal,
  addUsage: (u: RunUsage) => void usage.push(u),
});

describe("one review run (runReview)", () => {
  it("gives the diff since the base, new files included, and the config's rubric", async () => {
    const { cwd, base } = await repository();
    const s = scripted(['```review-findings\n{"findings":[]}\n```']);
    const usage: RunUsage[] = [];
    const answer = await runReview(s.sessions, "Check it all.", request(cwd, base, usage));
    expect(answer).toMatchObject({ kind: "answered", review: { round: 2, findings: [] } });
    expect(s.prompts[0]).toContain("## Rubric\n\nCheck it all.");
    expect(s.prompts[0]).toContain("-base\n+changed");
    expect(s.prompts[0]).toContain("+brand new");
    expect(s.prompts[0]).toContain("- base.txt\n- new.txt");
    expect(usage).toHaveLength(1);
    expect(s.closed()).toBe(1);
  });

  it("takes the repository's REVIEW.md as the rubric", async () => {
    const { cwd, base } = await repository();
    await writeFile(join(cwd, "REVIEW.md"), "Only look at the tests.\n");
    const s = scripted(["```review-findings\n[]\n```"]);
    const answer = await runReview(s.sessions, "Check it all.", request(cwd, base, []));
    expect(answer).toMatchObject({ kind: "answered", review: { rubric: "REVIEW.md" } });
    expect(s.prompts[0]).toContain("Only look at the tests.");
    expect(s.prompts[0]).not.toContain("Check it all.");
  });

  it("asks once more when the answer cannot be read, and takes the second", async () => {
    const { cwd, base } = await repository();
    const s = scripted([
      "Looks fine to me.",
      '```review-findings\n[{"severity":"minor","file":"new.txt","line":1,"message":"m"}]\n```',
    ]);
    const usage: RunUsage[] = [];
    const answer = await runReview(s.sessions, "r", request(cwd, base, usage));
    expect(answer.kind === "answered" && answer.review.findings).toEqual([
      { severity: "minor", file: "new.txt", line: 1, message: "m" },
    ]);
    expect(s.prompts[1]).toMatch(/^Your answer could not be read \(the reviewer's answer has no/);
    expect(usage).toHaveLength(2);
  });

  it("fails, saying why, when the second answer cannot be read either", async () => {
    const { cwd, base } = await repository();
    const s = scripted(["Fine.", "Still fine."]);
    const answer = await runReview(s.sessions, "r", request(cwd, base, []));
    expect(answer).toMatchObject({
      kind: "failed",
      why: "the reviewer's answer has no ```review-findings block",
    });
    expect(s.closed()).toBe(1);
  });
});
