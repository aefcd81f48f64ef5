import { Role, TaskState } from "@a2a-js/sdk";
import { textPart } from "../../../src/contract/messages.js";
import { describe, expect, it } from "vitest";
import { KIND } from "../../../src/contract/kinds.js";
import { status } from "../../../src/contract/statuses.js";
import { DENIAL, TEXT } from "../../../src/contract/texts.js";
import { FLEET_TEXT } from "../../../src/contract/fleet-texts.js";
import { PLAN_MEDIA_TYPE, PLAN_TEXT, planApprovalData } from "../../../src/contract/plan.js";
import { DELEGATION_TEXT } from "../../../src/contract/delegation.js";
import { DELIVERY_TEXT, type CheckRun } from "../../../src/contract/delivery.js";
import { MERGE_SUMMARY_MEDIA_TYPE, MERGE_TEXT } from "../../../src/contract/merge-approval.js";
import { EVENTS_EXTENSION_URI, EVENTS_EXTENSION_VERSION } from "../../../src/contract/extension.js";
import { CONTROL_EXTENSION_URI, CONTROL_EXTENSION_VERSION } from "../../../src/contract/control.js";
import { CONTROL_REFUSAL, CONTROL_TEXT } from "../../../src/contract/control-texts.js";
import { versionRefusedMessage } from "../../../src/contract/versions.js";
import { sessionResetText } from "../../../src/sessions/recovery.js";
import { docPage, manual } from "../../support/docs/pages.js";

/**
 * The docs are the contract a client codes against; src/contract/ is what the server says.
 * These tests hold the two to each other: every kind and text in one is in the other. The kinds'
 * tables are docs/protocol.md's; a text may be quoted on any page of the manual.
 */
const PROTOCOL = docPage("protocol.md");
const MANUAL = manual();

/** The rows of the first markdown table after `heading`, as trimmed cells. */
function tableAfter(heading: string): string[][] {
  const start = PROTOCOL.indexOf(heading);
  if (start < 0) throw new Error(`docs/protocol.md has no "${heading}"`);
  const lines = PROTOCOL.slice(start).split("\n");
  const first = lines.findIndex((l) => l.startsWith("|"));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

const code = (cell: string): string | undefined => /^`([^`]+)`$/.exec(cell)?.[1];

/** A documented text as a pattern: `<placeholder>` and `…` stand for any text. */
function pattern(text: string): RegExp {
  const parts = text.split(/(<[^>]+>|…)/);
  const body = parts
    .map((p) =>
      /^<[^>]+>$/.test(p) || p === "…" ? "[\\s\\S]*" : p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("");
  return new RegExp(`^${body}$`);
}

const statusRows = tableAfter("| `metadata.kind`");
const artifactRows = tableAfter("| `artifact.metadata.kind`");
const documented = [...statusRows, ...artifactRows].map((r) => code(r[0] ?? ""));

const STATE_NAMES: Record<string, TaskState> = {
  submitted: TaskState.TASK_STATE_SUBMITTED,
  working: TaskState.TASK_STATE_WORKING,
  "input-required": TaskState.TASK_STATE_INPUT_REQUIRED,
  failed: TaskState.TASK_STATE_FAILED,
  completed: TaskState.TASK_STATE_COMPLETED,
};

const ref = { taskId: "t", contextId: "c" };
const check: CheckRun = {
  round: 1,
  check: "test",
  command: "npm test",
  result: "failed",
  exitCode: 1,
  durationMs: 1200,
  outputTail: "1 failing",
};
const finding = { severity: "major", file: "src/a.ts", line: 3, message: "no null check" };
const work = { taskId: "b1", description: "sleep 2", status: "completed", summary: "done" };
const other = { taskId: "b2", description: "npm test" };

/** One status per kind, from the contract's own factories (what the server really publishes). */
const samples: Record<string, { state: TaskState | undefined; text: string }> = {};
const mergeSample = {
  branch: "claude-a2a/c1",
  headCommit: "b".repeat(40),
  into: "main",
  intoCommit: "a".repeat(40),
  how: "fast-forward",
} as const;
for (const event of [
  status.toolUse(ref, "Bash", "tu1"),
  status.toolResult(ref, "Bash", "tu1", false, { text: "ok", bytes: 2, truncated: false }),
  status.result(ref, "the answer"),
  status.resumed(ref),
  status.queued(ref, "context"),
  status.sessionReset(ref, sessionResetText({ previousSessionId: "s1", reason: "gone" })),
  status.backgroundWait(ref, [work, other]),
  status.backgroundFinished(ref, work),
  status.backgroundFinished(ref, { ...work, stopReason: "the server is stopping" }),
  status.backgroundTimeout(ref, 5, [work]),
  status.wakeInterrupted(ref),
  status.steered(ref, {
    messageId: "m1",
    role: Role.ROLE_USER,
    parts: [textPart("Also update the changelog.")],
    contextId: "c",
    taskId: "t",
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  }),
  status.rewound(ref, CONTROL_TEXT.rewound("t2", CONTROL_TEXT.rewoundCheckpoints([])), {}),
  status.forked(ref, CONTROL_TEXT.forked("t2"), "t2"),
  status.budgetReached(
    ref,
    TEXT.budgetStop("token:ci", "$5.02", "$5.00", "2025-02-01T00:00:00.000Z", false),
  ),
  status.delegated(ref, { agent: "b", taskId: "p1", contextId: "pc" }, "working", "", []),
  status.delivery(ref, check),
  status.inputRequired(ref, {
    text: DELEGATION_TEXT.input("b", "Pick one"),
    data: { kind: KIND.delegatedInput, agent: "b", taskId: "p1", text: "Pick one", data: [] },
  }),
  status.inputRequired(ref, {
    text: "Pick one",
    data: { kind: KIND.askUserQuestion, questions: [{ question: "Pick one" }] },
  }),
  status.inputRequired(ref, {
    text: MERGE_TEXT.summary(mergeSample),
    mediaType: MERGE_SUMMARY_MEDIA_TYPE,
    data: {
      kind: KIND.mergeApproval,
      merge: mergeSample,
      approvedBy: "caller",
      proof: {
        target: "merge",
        branch: "claude-a2a/c1",
        baseCommit: "a".repeat(40),
        headCommit: "b".repeat(40),
        files: [],
        checks: [],
        rounds: 1,
        review: [],
      },
    },
  }),
  status.inputRequired(ref, {
    text: PLAN_TEXT.noPlan,
    mediaType: PLAN_MEDIA_TYPE,
    data: planApprovalData(""),
  }),
  status.inputRequired(ref, {
    text: TEXT.permissionRequest("Bash", undefined),
    data: {
      kind: KIND.permissionRequest,
      toolName: "Bash",
      input: {},
      title: undefined,
      decisionReason: undefined,
    },
  }),
]) {
  const message = event.status?.message;
  const kind = message?.metadata?.kind as string;
  const part = message?.parts[0]?.content;
  samples[kind] = {
    state: event.status?.state,
    text: part?.$case === "text" ? part.value : "",
  };
}
samples[KIND.serverRestarted] = {
  state: TaskState.TASK_STATE_FAILED,
  text: TEXT.restartedWhileRunning,
};

/** Arguments to render each text of the contract with (a text not listed takes none). */
const ARGS: Record<string, unknown[]> = {
  summary: [mergeSample],
  noSuchBase: ["main"],
  dirtyCheckout: ["main"],
  checkedOutElsewhere: ["main", "/srv/main"],
  keptMoving: ["main"],
  rework: ["main", "a".repeat(40), ["work.txt"]],
  reworkStatus: ["main", 1],
  merged: ["claude-a2a/c1", "main", "fast-forward"],
  progress: ["b", "working", ""],
  input: ["b", "Which colour do you prefer?"],
  toolUse: ["Bash"],
  toolResult: ["Bash", false],
  backgroundWait: [[work, other]],
  backgroundFinished: [work],
  backgroundStopped: [work, "the server is stopping"],
  backgroundTimeout: [5000, [work]],
  permissionPrompt: ["Bash", undefined],
  fileTooLarge: ["big.bin", "created", 2000, 1000],
  runInterrupted: ["the session closed"],
  inboxFailed: ["EACCES"],
  didNotStart: ["the server is stopping"],
  internalError: ["boom"],
  promptRejected: ["400 invalid image"],
  inputTimeout: [1000],
  sameDenialAgain: ["Bash"],
  tooManyDenials: [3, 3, "Bash"],
  autonomousStart: ["task-1"],
  budgetExceeded: [0.0005, 0.00066, "claude.maxBudgetUsd"],
  budgetNotANumber: ["cheap"],
  budgetAboveLimit: [2, 1],
  modelNotAllowed: ["claude-opus-4-5", ["claude-sonnet-4-5"]],
  effortNotAllowed: ["max", []],
  tasksPerMinuteReached: ["token:ci", 10, "40 s", "2025-01-31T23:01:00.000Z"],
  concurrentTasksReached: ["token:ci", 2, 2],
  dailyBudgetReached: ["token:ci", "$5.02", "$5.00", "2025-02-01T00:00:00.000Z", "1 h"],
  budgetStop: ["token:ci", "$5.02", "$5.00", "2025-02-01T00:00:00.000Z", true],
  byClient: ["not now"],
  resumedByOperator: ["ops"],
  sandboxRefused: [
    "Bash",
    ["deny network-outbound example.com:80 (host is not on the allow list)"],
  ],
  canceledByOperator: ["ops"],
  ownerLostWhileRunning: ["build-1/api-3f2a9c1e"],
  ownerLostWhileParked: ["build-1/api-3f2a9c1e"],
  ownerGone: ["task-1", "build-1/api-3f2a9c1e"],
  ownerNotAnswering: ["task-1", "build-1/api-3f2a9c1e", 10000],
  rejected: ["Also add a README"],
  notAllowed: ["acceptEdits", ["plan"]],
  wider: ["auto", "default"],
  needsExtension: [CONTROL_EXTENSION_URI],
  steeringNotTaken: [["Also update the changelog."]],
  checkRan: [check],
  stillRed: [4, check],
  fixPrompt: [[check], 1, 3],
  roundError: ["the worktree is gone"],
  stepError: ["the remote is unreachable"],
  reviewed: [{ round: 1, findings: [finding], durationMs: 3000 }, 1],
  reviewFixPrompt: [[finding], "major", 1, 3],
  reviewBlocked: [4, [finding]],
  reviewError: ["the reviewer's session ended"],
  unknownKey: ["command"],
  unknownTarget: ["ship"],
  targetNotAllowed: ["merge", ["branch"]],
  unknownCheck: ["lint", ["test"]],
  badMaxRounds: [3],
};

/** Every text the contract defines, each rendered once with sample arguments. */
function rendered(texts: Record<string, unknown>): [string, string][] {
  return Object.entries(texts).map(([name, t]) => {
    if (typeof t === "string") return [name, t];
    const fn = t as (...args: unknown[]) => string;
    return [name, fn(...(ARGS[name] ?? []))];
  });
}

/**
 * Every backticked snippet of the manual that quotes a text: mostly literal words (a lone
 * `<toolName>` would match anything).
 */
const literal = (s: string) => s.replace(/<[^>]+>|…/g, "");
const flat = (s: string) => s.replace(/\s*\n\s*(> )?/g, " ");
// A block closes with a fence as long as its opening one (a ```` block may hold ``` lines).
const prose = MANUAL.replace(/^[ \t]*(`{3,})[\s\S]*?^[ \t]*\1(?!`)/gm, "");
// A text holding backticks is quoted in a double-backtick span.
const snippets = [...prose.matchAll(/``\s?([\s\S]+?)\s?``|`([^`]+)`/g)]
  .map((m) => flat(m[1] ?? m[2] ?? ""))
  .filter((s) => literal(s).trim().length >= 12);

describe("the docs' event contract and src/contract/", () => {
  it("document the same kinds", () => {
    expect(new Set(documented)).toEqual(new Set(Object.values(KIND)));
    expect(documented).toHaveLength(Object.values(KIND).length);
  });

  it.each(statusRows.map((r) => [code(r[0] ?? "") ?? "", r] as const))(
    "%s: the docs' state and text are what the server publishes",
    (kind, row) => {
      const sample = samples[kind];
      expect(sample, `no sample status for ${kind}`).toBeDefined();
      expect(sample?.state).toBe(STATE_NAMES[row[1] ?? ""]);
      const texts = [...(row[2] ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "");
      // A row whose text is prose (Claude's answer, the questions) names no fixed text.
      if (texts.length === 0) return;
      expect(texts.some((t) => pattern(t).test(sample?.text ?? ""))).toBe(true);
    },
  );

  it.each([
    ...rendered(TEXT),
    ...rendered(DENIAL).map(([n, t]) => [`denial ${n}`, t]),
    ...rendered(FLEET_TEXT).map(([n, t]) => [`fleet ${n}`, t]),
    ...rendered(PLAN_TEXT).map(([n, t]) => [`plan ${n}`, t]),
    ...rendered(DELEGATION_TEXT).map(([n, t]) => [`delegation ${n}`, t]),
    ...rendered(CONTROL_REFUSAL).map(([n, t]) => [`control ${n}`, t]),
    ...rendered(DELIVERY_TEXT).map(([n, t]) => [`delivery ${n}`, t]),
    ...rendered(MERGE_TEXT).map(([n, t]) => [`merge ${n}`, t]),
  ])("%s is quoted in the docs", (_name, text) => {
    expect(snippets.filter((s) => pattern(s).test(text))).not.toEqual([]);
  });
});

describe("the docs' protocol versions and extension and src/contract/", () => {
  it("quotes the -32009 answer to a header-less request as the server words it", () => {
    expect(docPage("bindings.md")).toContain(
      JSON.stringify(versionRefusedMessage(undefined, false)).slice(1, -1),
    );
  });

  it("names the event extension's URI and version", () => {
    expect(PROTOCOL).toContain(`| \`${EVENTS_EXTENSION_URI}\` | \`${EVENTS_EXTENSION_VERSION}\``);
  });

  it("names the control extension's URI and version, on its page and beside the events one", () => {
    const row = `| \`${CONTROL_EXTENSION_URI}\` | \`${CONTROL_EXTENSION_VERSION}\``;
    expect(PROTOCOL).toContain(row);
    expect(docPage("control.md")).toContain(row);
  });
});
