import { describe, expect, it } from "vitest";
import type { CheckRun } from "../../../src/contract/delivery.js";
import { KIND } from "../../../src/contract/kinds.js";
import { outputTail } from "../../../src/delivery/output-tail.js";
import { proofArtifact, proofOfWork, renderProof } from "../../../src/delivery/proof.js";
import { roundFate } from "../../../src/delivery/rounds.js";

const run = (round: number, check: string, result: CheckRun["result"]): CheckRun => ({
  round,
  check,
  command: `npm run ${check}`,
  result,
  exitCode: result === "passed" ? 0 : result === "failed" ? 1 : null,
  durationMs: 250,
  outputTail: `${check} said ${result}`,
});

describe("what follows a round of checks (roundFate)", () => {
  it.each<[string, CheckRun[], number, number, string]>([
    ["all passed", [run(1, "test", "passed"), run(1, "lint", "passed")], 1, 3, "green"],
    ["no checks at all", [], 1, 3, "green"],
    ["a failure, rounds left", [run(1, "test", "failed")], 1, 3, "fix"],
    ["a failure on the last fix round", [run(3, "test", "failed")], 3, 3, "fix"],
    ["a failure after the last fix round", [run(4, "test", "failed")], 4, 3, "red"],
    ["a timeout, no fix round allowed", [run(1, "test", "timed_out")], 1, 0, "red"],
  ])("%s: %s", (_name, runs, round, max, fate) => {
    expect(roundFate(runs, round, max).kind).toBe(fate);
  });

  it("gives the failed checks to the fix round, and the last one to a red end", () => {
    const runs = [run(2, "test", "failed"), run(2, "lint", "passed"), run(2, "types", "failed")];
    expect(roundFate(runs, 2, 3)).toEqual({ kind: "fix", failed: [runs[0], runs[2]] });
    expect(roundFate(runs, 4, 3)).toEqual({ kind: "red", last: runs[2] });
  });
});

describe("a check's output tail", () => {
  it.each([
    ["short output, as is", "a\nb\n", 3, 100, "a\nb"],
    ["the last lines", "1\n2\n3\n4\n", 2, 100, "…\n3\n4"],
    ["within the character cap", "abcdefghij", 5, 4, "…\nghij"],
    ["nothing", "", 3, 100, ""],
  ])("%s", (_name, output, lines, chars, tail) => {
    expect(outputTail(output, lines, chars)).toBe(tail);
  });
});

describe("the proof of work", () => {
  const commit = {
    branch: "claude-a2a/ctx-0123456789",
    baseCommit: "a".repeat(40),
    commit: "b".repeat(40),
    files: [{ path: "src/date.ts", change: "modified" as const }],
  };
  const checks = [run(1, "test", "failed"), run(2, "test", "passed")];

  it("holds the branch, both commits, the files and every check of every round", () => {
    expect(proofOfWork("branch", commit, checks)).toEqual({
      target: "branch",
      branch: commit.branch,
      baseCommit: commit.baseCommit,
      headCommit: commit.commit,
      files: commit.files,
      checks,
      rounds: 2,
      review: [],
    });
  });

  it("renders as Markdown, one section per check run", () => {
    const md = renderProof(proofOfWork("branch", commit, checks));
    expect(md).toContain("- Branch: `claude-a2a/ctx-0123456789`");
    expect(md).toContain(`- Head: \`${"b".repeat(40)}\``);
    expect(md).toContain("- `src/date.ts` (modified)");
    expect(md).toContain("### Round 1: test, failed");
    expect(md).toContain("### Round 2: test, passed");
    expect(md).toContain("- Exit code: 1");
    expect(md).toContain("test said failed");
    expect(md).toContain("## Review");
  });

  it("says so when nothing changed and no check is configured", () => {
    const md = renderProof(proofOfWork("branch", { ...commit, files: [] }, []));
    expect(md).toContain("## Files changed\n\nNone.");
    expect(md).toContain("None configured.");
    expect(md).toContain("- Rounds: 0");
  });

  it("is one artifact: the JSON as a data part, the Markdown as a text part", () => {
    const proof = proofOfWork("branch", commit, checks);
    const artifact = proofArtifact(proof);
    expect(artifact.artifactId).toBe("proof-of-work");
    expect(artifact.metadata).toEqual({ kind: KIND.proofOfWork });
    expect(artifact.parts.map((p) => p.content?.$case)).toEqual(["data", "text"]);
    expect(artifact.parts[0]?.content?.value).toEqual(proof);
    expect(artifact.parts[1]?.mediaType).toBe("text/markdown");
  });
});
