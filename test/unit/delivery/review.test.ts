import { describe, expect, it } from "vitest";
import type { ProofOfWork } from "../../../src/contract/delivery.js";
import { DELIVERY_TEXT } from "../../../src/contract/delivery.js";
import { KIND } from "../../../src/contract/kinds.js";
import type { ReviewFinding, ReviewRound } from "../../../src/contract/review.js";
import { renderProof } from "../../../src/delivery/proof.js";
import { parseReview } from "../../../src/delivery/review/findings.js";
import { reviewerPrompt } from "../../../src/delivery/review/prompt.js";
import { renderReview, reviewArtifact } from "../../../src/delivery/review/render.js";
import {
  REVIEWER_DENIED_TOOLS,
  reviewerOptions,
} from "../../../src/delivery/review/review-options.js";
import {
  atOrAbove,
  countBySeverity,
  provenFindings,
  reviewFate,
} from "../../../src/delivery/review/verdict.js";

const fenced = (body: string) => "I read it.\n\n```review-findings\n" + body + "\n```\n";
const f = (
  severity: ReviewFinding["severity"],
  file = "src/a.ts",
  message = `a ${severity} thing`,
  line = 3,
): ReviewFinding => ({ severity, file, line, message });

describe("the reviewer's answer (parseReview)", () => {
  it.each<[string, string, ReviewFinding[]]>([
    ["no finding", fenced('{ "findings": [] }'), []],
    [
      "an object with findings",
      fenced(
        '{"findings":[{"severity":"major","file":"src/a.ts","line":3,"message":"a major thing"}]}',
      ),
      [f("major")],
    ],
    [
      "a bare array, file and line left out",
      fenced('[{"severity":"nit","message":"naming"}]'),
      [{ severity: "nit", file: "", line: 0, message: "naming" }],
    ],
    [
      "the last block of two",
      fenced("[]") + fenced('[{"severity":"blocker","file":" x.ts ","line":1,"message":"m"}]'),
      [{ severity: "blocker", file: "x.ts", line: 1, message: "m" }],
    ],
  ])("reads %s", (_name, text, findings) => {
    expect(parseReview(text)).toEqual({ ok: true, findings });
  });

  it.each<[string, string, RegExp]>([
    ["no block", "Looks good to me.", /no ```review-findings block/],
    ["a block of another language", "```json\n[]\n```", /no ```review-findings block/],
    ["JSON that does not parse", fenced("{ findings: [ }"), /not JSON/],
    ["an unknown severity", fenced('[{"severity":"critical","message":"m"}]'), /severity/],
    ["an empty message", fenced('[{"severity":"nit","message":"  "}]'), /message/],
    ["a negative line", fenced('[{"severity":"nit","line":-1,"message":"m"}]'), /line/],
    ["an extra key", fenced('[{"severity":"nit","message":"m","fix":"x"}]'), /not a findings list/],
    ["a string", fenced('"fine"'), /not a findings list/],
  ])("refuses %s, saying why", (_name, text, why) => {
    const parsed = parseReview(text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.why).toMatch(why);
  });
});

describe("the blocking threshold (reviewFate)", () => {
  it.each<[ReviewFinding["severity"], ReviewFinding["severity"], boolean]>([
    ["blocker", "major", true],
    ["major", "major", true],
    ["minor", "major", false],
    ["nit", "major", false],
    ["nit", "nit", true],
    ["major", "blocker", false],
  ])("%s at threshold %s blocks: %s", (severity, threshold, blocks) => {
    expect(atOrAbove(severity, threshold)).toBe(blocks);
  });

  it("is clean without a finding at or above the threshold, whatever the rounds", () => {
    expect(reviewFate([f("minor"), f("nit")], "major", 9, 0)).toEqual({ kind: "clean" });
  });

  it("sends blocking findings back while a fix round is left, then blocks", () => {
    const findings = [f("nit"), f("blocker"), f("major")];
    expect(reviewFate(findings, "major", 3, 3)).toEqual({
      kind: "fix",
      blocking: [findings[1], findings[2]],
    });
    expect(reviewFate(findings, "major", 4, 3).kind).toBe("blocked");
    expect(reviewFate(findings, "major", 1, 0).kind).toBe("blocked");
  });

  it("counts findings by severity", () => {
    expect(countBySeverity([f("nit"), f("nit"), f("major")])).toEqual({
      blocker: 0,
      major: 1,
      minor: 0,
      nit: 2,
    });
  });
});

const review = (round: number, findings: ReviewFinding[]): ReviewRound => ({
  round,
  durationMs: 1200 * round,
  findings,
  rubric: "config",
});

describe("how each finding ended (provenFindings)", () => {
  it("fixed when a later review no longer has it, open when the last one does, each once", () => {
    const reviews = [
      review(1, [f("major", "a.ts", "null check"), f("blocker", "b.ts", "leak"), f("nit")]),
      review(2, [f("blocker", "b.ts", "Leak"), f("minor", "c.ts", "name")]),
    ];
    expect(provenFindings(reviews, "major").map((p) => [p.file, p.round, p.outcome])).toEqual([
      ["a.ts", 1, "fixed"],
      ["b.ts", 1, "open"],
      ["src/a.ts", 1, "below-threshold"],
      ["c.ts", 2, "below-threshold"],
    ]);
  });

  it("is empty without a review", () => {
    expect(provenFindings([], "major")).toEqual([]);
  });
});

const PROOF: ProofOfWork = {
  target: "branch",
  branch: "claude-a2a/x",
  baseCommit: "a".repeat(40),
  headCommit: "b".repeat(40),
  files: [{ path: "src/a.ts", change: "modified" }],
  checks: [],
  rounds: 2,
  review: [],
};

describe("the review in the proof of work and its artifact", () => {
  it("renders each review's time and each finding with how it ended", () => {
    const reviews = [review(1, [f("major", "a.ts", "null check")]), review(2, [f("nit")])];
    const markdown = renderProof({
      ...PROOF,
      review: provenFindings(reviews, "major"),
      reviewRounds: reviews.map((r) => ({
        round: r.round,
        durationMs: r.durationMs,
        findings: r.findings.length,
      })),
    });
    expect(markdown).toContain("## Review\n\n- Round 1: 1 finding(s) (1200 ms)");
    expect(markdown).toContain("- Round 2: 1 finding(s) (2400 ms)");
    expect(markdown).toContain("- **major** `a.ts:3`: null check (round 1, fixed)");
    expect(markdown).toContain("- **nit** `src/a.ts:3`: a nit thing (round 2, below-threshold)");
  });

  it("says none was asked without a review", () => {
    expect(renderProof(PROOF)).toContain("## Review\n\nNone asked.");
  });

  it("is an artifact `review` of kind review: the JSON and its Markdown", () => {
    const data = { blocking: "major" as const, reviews: [review(1, [f("blocker")])] };
    const a = reviewArtifact(data);
    expect(a.artifactId).toBe("review");
    expect(a.metadata).toEqual({ kind: KIND.review });
    expect(a.parts[0]?.content).toEqual({ $case: "data", value: data });
    expect(renderReview(data)).toContain("## Round 1: 1 finding(s), 1 blocking");
  });

  it("fails with every blocking finding, and sends them back in the fix prompt", () => {
    const blocking = [f("blocker", "b.ts", "leak", 0), f("major", "", "no tests")];
    expect(DELIVERY_TEXT.reviewBlocked(4, blocking)).toBe(
      "Delivery failed: the review still has 2 blocking finding(s) after 4 round(s):\n" +
        "- blocker: b.ts: leak\n- major: (no file): no tests",
    );
    expect(DELIVERY_TEXT.reviewFixPrompt(blocking, "major", 1, 3)).toContain(
      "found 2 finding(s) at or above major",
    );
  });
});

describe("the reviewer's prompt and session options", () => {
  it("carries the rubric, the files, the diff and the fence to answer in", () => {
    const prompt = reviewerPrompt({
      rubric: "Check the tests.",
      baseCommit: "c".repeat(40),
      diff: "+x\n",
      files: ["a.ts"],
    });
    expect(prompt).toMatch(/^You are the reviewer/);
    expect(prompt).toContain("## Rubric\n\nCheck the tests.");
    expect(prompt).toContain("- a.ts\n\n```diff\n+x\n\n```");
    expect(prompt).toContain("```review-findings");
  });

  const base = {
    cwd: "/w/t",
    model: "claude-sonnet-4-5",
    effort: undefined,
    fallbackModel: undefined,
    settingSources: ["user", "project", "local"] as const,
    maxTurns: undefined,
  };

  it("without a sandbox: reading tools only, no Bash, nothing of the repository's settings", () => {
    const o = reviewerOptions({
      ...base,
      settingSources: [...base.settingSources],
      sandbox: undefined,
    });
    expect(o.sdkOptions?.tools).toEqual(["Read", "Glob", "Grep"]);
    expect(o.disallowedTools).toEqual(
      expect.arrayContaining(["Write", "Edit", "NotebookEdit", "Bash"]),
    );
    expect(o.settingSources).toEqual(["user"]);
    expect(o.permissionMode).toBe("default");
    expect(o.resume).toBeUndefined();
    expect(o.sandbox).toBeUndefined();
    expect(o.model).toBe("claude-sonnet-4-5");
  });

  it("with a sandbox: Bash inside it only, never auto-allowed (what would ask is denied)", () => {
    const o = reviewerOptions({
      ...base,
      settingSources: [...base.settingSources],
      sandbox: { enabled: true, allowUnsandboxedCommands: true, filesystem: { denyWrite: ["/x"] } },
    });
    expect(o.sdkOptions?.tools).toEqual(["Read", "Glob", "Grep", "Bash"]);
    expect(o.disallowedTools).toEqual([...REVIEWER_DENIED_TOOLS]);
    expect(o.sandbox).toMatchObject({
      enabled: true,
      allowUnsandboxedCommands: false,
      autoAllowBashIfSandboxed: false,
      filesystem: { denyWrite: ["/x"] },
    });
  });
});
