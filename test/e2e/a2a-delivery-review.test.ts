/**
 * A delivery's review (docs/delivery.md "Review") against the REAL Claude Code runtime with a
 * scripted model and real git: after green checks a new, read-only Claude Code session reads the
 * diff; a finding at the blocking severity goes back to the author's conversation as a fix round,
 * then the checks and the review run again; a Write the reviewer attempts is refused.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type Message, type StreamResponse } from "@a2a-js/sdk";
import type { ConfigInput } from "../../src/config/schema.js";
import type { ProofOfWork } from "../../src/contract/delivery.js";
import type { ReviewArtifactData } from "../../src/contract/review.js";
import { REVIEWER_OPENING } from "../../src/delivery/review/prompt.js";
import {
  a2a,
  describeStream,
  lastStatus,
  metricValue,
  reply,
  says,
  sendRequest,
  text,
  toolUse,
  userMessage,
  watch,
  type ParsedRequest,
  type Rule,
} from "../support/harness/index.js";
import { withControl } from "../support/harness/control.js";
import { git, initRepository, workingDir } from "../support/harness/git.js";
import { Gate } from "../support/gated-inbox.js";

const PRESENT = {
  name: "present",
  command: "test -f feature.txt || { echo 'feature.txt is missing'; exit 1; }",
  timeoutSeconds: 120,
};

const CONFIG = {
  claude: {
    isolation: "worktree",
    delivery: { checks: [PRESENT], review: true, reviewBlocking: "major", maxRounds: 2 },
  },
} satisfies ConfigInput;

const isReviewer = (req: ParsedRequest) => JSON.stringify(req.body).includes(REVIEWER_OPENING);
const findings = (list: unknown[]) =>
  reply(
    text(
      "I read the change.\n\n```review-findings\n" + JSON.stringify({ findings: list }) + "\n```",
    ),
  );
const writeFeature = (content: string) => (req: ParsedRequest) =>
  reply(toolUse("Write", { file_path: join(workingDir(req), "feature.txt"), content }));

/** The author writes v1; the reviewer wants v2 (major); the author's fix turn writes v2. */
const rules: Rule[] = [
  {
    name: "review: v1 has a major finding",
    match: { lastUserText: /\+v1/, when: isReviewer },
    reply: findings([
      {
        severity: "major",
        file: "feature.txt",
        line: 1,
        message: "It says v1; the task asked for v2.",
      },
      { severity: "nit", file: "feature.txt", line: 1, message: "No trailing comment." },
    ]),
  },
  {
    name: "review: v2 is clean but a nit",
    match: { lastUserText: /\+v2/, when: isReviewer },
    reply: findings([
      { severity: "nit", file: "feature.txt", line: 1, message: "No trailing comment." },
    ]),
  },
  {
    name: "review: try to write",
    match: { lastUserText: /\+w1/, when: isReviewer },
    reply: (req) =>
      reply(toolUse("Write", { file_path: join(workingDir(req), "planted.txt"), content: "x\n" })),
  },
  {
    name: "review: read with Bash in the sandbox",
    match: { lastUserText: /\+s1-content/, when: isReviewer },
    reply: reply(toolUse("Bash", { command: "cat feature.txt", description: "read it" })),
  },
  {
    name: "review: write with Bash in the sandbox",
    match: { toolResult: /s1-content/, when: isReviewer },
    reply: reply(toolUse("Bash", { command: "echo x > planted.txt", description: "write" })),
  },
  {
    name: "review: after the refused write",
    match: { toolResult: true, when: isReviewer },
    reply: findings([]),
  },
  {
    name: "author: fix what the review found",
    match: { lastUserText: /A reviewer in a separate context/, toolResult: false },
    reply: writeFeature("v2\n"),
  },
  { name: "author: wrote", match: { toolResult: /feature\.txt/ }, reply: reply(text("Done.")) },
  { name: "author: write v1", match: { lastUserText: /Write v1/ }, reply: writeFeature("v1\n") },
  {
    name: "author: write s1",
    match: { lastUserText: /Write s1/ },
    reply: writeFeature("s1-content\n"),
  },
  { name: "author: write w1", match: { lastUserText: /Write w1/ }, reply: writeFeature("w1\n") },
];

const deliverMessage = (prompt: string, deliver: unknown = true): Message => ({
  ...userMessage(prompt),
  metadata: { deliver },
});

const statusMetadata = (events: readonly StreamResponse[]) =>
  events.flatMap((e) => {
    const message =
      e.payload?.$case === "statusUpdate" ? e.payload.value.status?.message : undefined;
    return message?.metadata?.kind === "delivery" ? [message.metadata] : [];
  });

function artifactData<T>(events: readonly StreamResponse[], id: string) {
  const artifact = events
    .flatMap((e) =>
      e.payload?.$case === "artifactUpdate" && e.payload.value.artifact?.artifactId === id
        ? [e.payload.value.artifact]
        : [],
    )
    .at(-1);
  const data = artifact?.parts[0]?.content;
  const markdown = artifact?.parts[1]?.content;
  return {
    data: data?.$case === "data" ? (data.value as unknown as T) : undefined,
    markdown: markdown?.$case === "text" ? markdown.value : "",
  };
}

const start = () =>
  a2a({ fetchImpl: withControl, config: CONFIG, rules, beforeStart: (cwd) => initRepository(cwd) });

describe("delivery: review in a separate context (real runtime, real git)", () => {
  it("a major finding goes back to Claude as a fix round; the checks and a clean review follow", async () => {
    const h = await start();
    const events = await watch(h.client.sendMessageStream(sendRequest(deliverMessage("Write v1"))))
      .done;
    const end = lastStatus(events);
    expect(end.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(h.bench.model.unmatched).toEqual([]);

    // Checks, review, fix turn, checks, review: each a `delivery` status of its round.
    const steps = statusMetadata(events).map((m): unknown[] =>
      m.step === "review"
        ? ["review", m.round, m.blocking, m.findings]
        : ["check", m.round, m.result],
    );
    expect(steps).toEqual([
      ["check", 1, "passed"],
      ["review", 1, 1, { blocker: 0, major: 1, minor: 0, nit: 1 }],
      ["check", 2, "passed"],
      ["review", 2, 0, { blocker: 0, major: 0, minor: 0, nit: 1 }],
    ]);

    // The reviewer: a session of its own (its first request holds no "Write v1"), read-only tools.
    const reviews = h.bench.model.requests.filter((r) => isReviewer(r.request));
    expect(reviews).toHaveLength(2);
    for (const r of reviews) {
      expect(JSON.stringify(r.request.body)).not.toContain("Write v1");
      expect(r.request.toolNames).not.toEqual(
        expect.arrayContaining([expect.stringMatching(/^(Write|Edit|NotebookEdit|Bash)$/)]),
      );
      expect(r.request.toolNames).toContain("Read");
    }
    // The rubric (the config's default) and the diff since the branch's base.
    expect(reviews[0]?.request.lastUserText).toContain("Review the change for correctness");
    expect(reviews[0]?.request.lastUserText).toContain("+++ b/feature.txt");

    // The fix turn went to the author's conversation, with the blocking finding only.
    const fix = h.bench.model.requests.find((r) => r.rule === "author: fix what the review found");
    expect(fix?.request.lastUserText).toContain("major: feature.txt:1: It says v1");
    expect(fix?.request.lastUserText).not.toContain("No trailing comment");
    expect(JSON.stringify(fix?.request.body)).toContain("Write v1");

    // The work holds the fix, committed once on the branch.
    const { data: proof, markdown } = artifactData<ProofOfWork>(events, "proof-of-work");
    expect(git(h.bench.sandbox.cwd, "show", `${proof?.headCommit}:feature.txt`)).toBe("v2\n");
    expect(proof?.rounds).toBe(2);
    expect(proof?.review.map((f) => [f.severity, f.round, f.outcome])).toEqual([
      ["major", 1, "fixed"],
      ["nit", 1, "below-threshold"],
    ]);
    expect(proof?.reviewRounds?.map((r) => [r.round, r.findings])).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(markdown).toContain("(round 1, fixed)");

    const { data: review } = artifactData<ReviewArtifactData>(events, "review");
    expect(review?.blocking).toBe("major");
    expect(review?.reviews.map((r) => [r.round, r.findings.length, r.rubric])).toEqual([
      [1, 2, "config"],
      [2, 1, "config"],
    ]);

    // The reviewer's turns count in the task's usage: the author's 2 runs (its turn, the fix
    // turn) and the reviewer's 2; the tokens of every model request, the reviewer's included.
    const final = events
      .flatMap((e) => (e.payload?.$case === "statusUpdate" ? [e.payload.value.metadata] : []))
      .at(-1);
    expect(final?.usage).toMatchObject({
      runs: 4,
      inputTokens: 10 * h.bench.model.requests.length,
    });
    expect(final?.delivery).toMatchObject({ review: true, rounds: 2, reviews: 2 });
  }, 180_000);

  it("a Write the reviewer attempts is refused: the file is not written", async () => {
    const h = await start();
    const events = await watch(h.client.sendMessageStream(sendRequest(deliverMessage("Write w1"))))
      .done;
    expect(lastStatus(events).state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(h.bench.model.unmatched).toEqual([]);

    const attempt = h.bench.model.requests.find((r) => r.rule === "review: try to write");
    const worktree = workingDir(attempt?.request as ParsedRequest);
    const after = h.bench.model.requests.find((r) => r.rule === "review: after the refused write");
    expect(after?.request.toolResults[0]?.isError).toBe(true);
    expect(existsSync(join(worktree, "planted.txt"))).toBe(false);
    expect(readFileSync(join(worktree, "feature.txt"), "utf8")).toBe("w1\n");
    const { data: proof } = artifactData<ProofOfWork>(events, "proof-of-work");
    expect(proof?.files).toEqual([{ path: "feature.txt", change: "added" }]);
  }, 180_000);

  it("still blocking after the last round: the task fails with the findings, no proof of work", async () => {
    const h = await start();
    const events = await watch(
      h.client.sendMessageStream(sendRequest(deliverMessage("Write v1", { maxRounds: 0 }))),
    ).done;
    const end = lastStatus(events);
    expect(end.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(end.text).toBe(
      "Delivery failed: the review still has 1 blocking finding(s) after 1 round(s):\n" +
        "- major: feature.txt:1: It says v1; the task asked for v2.",
    );
    expect(h.bench.model.requests.map((r) => r.rule)).not.toContain(
      "author: fix what the review found",
    );
    expect(artifactData(events, "proof-of-work").data).toBeUndefined();
    expect(artifactData<ReviewArtifactData>(events, "review").data?.reviews).toHaveLength(1);
  }, 180_000);

  it("with the sandbox on, the reviewer's Bash runs inside it and cannot write the worktree", async () => {
    const h = await a2a({
      fetchImpl: withControl,
      config: { claude: { ...CONFIG.claude, sandbox: "strict" } },
      rules,
      beforeStart: (cwd) => initRepository(cwd),
    });
    const events = await watch(h.client.sendMessageStream(sendRequest(deliverMessage("Write s1"))))
      .done;
    expect(lastStatus(events).state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(h.bench.model.unmatched).toEqual([]);
    const rule = (name: string) => h.bench.model.requests.find((r) => r.rule === name)?.request;
    const read = rule("review: read with Bash in the sandbox");
    expect(read?.toolNames).toContain("Bash");
    expect(read?.toolNames).not.toContain("Write");
    // A read-only command ran (in the sandbox); a write would need a permission: denied.
    expect(rule("review: write with Bash in the sandbox")?.toolResults[0]?.content).toContain(
      "s1-content",
    );
    const denied = rule("review: after the refused write")?.toolResults[0];
    expect(denied?.isError).toBe(true);
    expect(denied?.content).toContain("The reviewer works read-only");
    expect(existsSync(join(workingDir(read as ParsedRequest), "planted.txt"))).toBe(false);
  }, 180_000);
});

describe("delivery: the reviewer's process counts under sessions.maxLive", () => {
  /** The author writes g1; the reviewer answers (clean) once the test opens `gate`. */
  const gated = (gate: Gate): Rule[] => [
    {
      name: "review: gated",
      match: { lastUserText: /\+g1/, when: isReviewer },
      reply: async () => {
        await gate.opened;
        return findings([]);
      },
    },
    { name: "author: write g1", match: { lastUserText: /Write g1/ }, reply: writeFeature("g1\n") },
    { name: "author: wrote", match: { toolResult: /feature\.txt/ }, reply: reply(text("Done.")) },
    says("Other context", "OTHER", "other"),
  ];
  const startWith = (maxLive: number, gate: Gate) =>
    a2a({
      fetchImpl: withControl,
      config: { ...CONFIG, sessions: { maxLive, minIdleBeforeEvictMs: 0 } },
      rules: gated(gate),
      beforeStart: (cwd) => initRepository(cwd),
    });

  it("maxLive 2: the task's session and its reviewer fill it, and another conversation waits for the review", async () => {
    const gate = new Gate();
    const h = await startWith(2, gate);
    const a = watch(h.client.sendMessageStream(sendRequest(deliverMessage("Write g1"))));
    await h.bench.model.waitForRequest(isReviewer, { timeoutMs: 60_000 });
    const b = h.watch("Other context");
    // It is told it waits for a process, and it does.
    await expect
      .poll(() => describeStream(b.items), { timeout: 30_000 })
      .toContain("status:submitted:queued");
    await expect
      .poll(() => metricValue(h.server.url, "claude_a2a_queued_tasks"), { timeout: 30_000 })
      .toBe(1);
    expect(h.bench.model.messageRequests.some((r) => r.lastUserText.includes("Other"))).toBe(false);
    gate.open();
    expect(lastStatus(await a.done).state).toBe(TaskState.TASK_STATE_COMPLETED);
    await b.done;
    expect(lastStatus(b.items).state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(await metricValue(h.server.url, "claude_a2a_queued_tasks")).toBe(0);
    expect(h.bench.model.unmatched).toEqual([]);
  }, 180_000);

  it("maxLive 1: the review does not wait on its own task's session; it runs over the cap and ends", async () => {
    const gate = new Gate();
    gate.open();
    const h = await startWith(1, gate);
    const events = await watch(h.client.sendMessageStream(sendRequest(deliverMessage("Write g1"))))
      .done;
    expect(lastStatus(events).state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(h.bench.model.requests.some((r) => isReviewer(r.request))).toBe(true);
    expect(h.bench.model.unmatched).toEqual([]);
  }, 180_000);
});
