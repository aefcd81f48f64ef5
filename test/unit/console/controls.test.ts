import { describe, expect, it } from "vitest";
import { Role, TaskState, type AgentCard, type Message, type Task } from "@a2a-js/sdk";
import {
  controlMetadata,
  dryRunOf,
  offeredControls,
  offersPlanMode,
  peerOf,
  planOf,
  taskControls,
} from "../../../console/controls.js";
import { statusWords } from "../../../console/words.js";
import { controlExtension, type Control } from "../../../src/contract/control.js";
import { artifact, dataPart, rawPart, textPart } from "../../../src/contract/messages.js";

const card = (ext: unknown) =>
  ({ capabilities: { extensions: ext === undefined ? [] : [ext] } }) as unknown as AgentCard;

const message = (parts: Message["parts"], kind?: string): Message => ({
  messageId: "m",
  contextId: "c",
  taskId: "t",
  role: Role.ROLE_AGENT,
  parts,
  metadata: kind === undefined ? undefined : { kind },
  extensions: [],
  referenceTaskIds: [],
});

const task = (
  state: TaskState,
  metadata: Record<string, unknown> = {},
  extra: Partial<Task> = {},
): Task => ({
  id: "t",
  contextId: "c",
  status: { state, message: undefined, timestamp: "" },
  artifacts: [],
  history: [],
  metadata,
  ...extra,
});

const RECORD = { control: { sessionId: "s", promptUuid: "u" } };
const ALL = new Set<Control>(["steer", "plan", "rewind", "fork"]);

describe("what the card offers", () => {
  it.each<[string, unknown, Control[], boolean]>([
    ["no extension", undefined, [], false],
    ["steer only", controlExtension(["steer"]), ["steer"], false],
    [
      "every control, plan mode listed",
      controlExtension(["steer", "plan", "rewind", "fork"], ["plan"]),
      ["steer", "plan", "rewind", "fork"],
      true,
    ],
    ["plan on but no mode a message may ask for", controlExtension(["plan"]), ["plan"], false],
    [
      "plan mode listed but the plan control off",
      controlExtension(["rewind"], ["plan"]),
      ["rewind"],
      false,
    ],
    [
      "an unknown control is ignored",
      { uri: controlExtension(["fork"])?.uri, params: { controls: ["fork", "teleport"] } },
      ["fork"],
      false,
    ],
  ])("%s", (_, ext, controls, plan) => {
    expect([...offeredControls(card(ext))]).toEqual(controls);
    expect(offersPlanMode(card(ext))).toBe(plan);
  });
});

describe("taskControls: rewind and fork only on a task that can take them", () => {
  it.each<[string, Task, ReadonlySet<Control>, string[]]>([
    [
      "an ended task with its record",
      task(TaskState.TASK_STATE_COMPLETED, RECORD),
      ALL,
      ["rewind", "fork"],
    ],
    [
      "a failed or canceled one too",
      task(TaskState.TASK_STATE_CANCELED, RECORD),
      ALL,
      ["rewind", "fork"],
    ],
    [
      "only what the card offers",
      task(TaskState.TASK_STATE_COMPLETED, RECORD),
      new Set<Control>(["fork"]),
      ["fork"],
    ],
    ["a working task", task(TaskState.TASK_STATE_WORKING, RECORD), ALL, []],
    ["a waiting task", task(TaskState.TASK_STATE_INPUT_REQUIRED, RECORD), ALL, []],
    [
      "no record (a dry run, a task that never reached Claude)",
      task(TaskState.TASK_STATE_COMPLETED),
      ALL,
      [],
    ],
    [
      "a record without its prompt",
      task(TaskState.TASK_STATE_COMPLETED, { control: { sessionId: "s" } }),
      ALL,
      [],
    ],
  ])("%s", (_, t, offered, shown) => {
    expect(taskControls(offered, t)).toEqual(shown);
  });
});

describe("controlMetadata", () => {
  it.each([
    [{ kind: "plan" } as const, { permissionMode: "plan" }],
    [{ kind: "dry-run", taskId: "t2" } as const, { rewindTo: "t2", dryRun: true }],
    [{ kind: "rewind", taskId: "t2" } as const, { rewindTo: "t2" }],
    [{ kind: "fork", taskId: "t2" } as const, { forkOf: "t2" }],
  ])("%o → %o", (ask, metadata) => {
    expect(controlMetadata(ask)).toEqual(metadata);
  });
});

describe("what a prompt is", () => {
  const plan = "# Plan\n\n1. Write hello.txt.";
  it.each<[string, Message, string | undefined, string | undefined]>([
    [
      "a plan: its data part's plan",
      message([textPart(plan), dataPart({ kind: "plan_approval", plan })], "plan_approval"),
      plan,
      undefined,
    ],
    [
      "a plan without a plan file: its text",
      message(
        [textPart("Claude asks to go ahead."), dataPart({ kind: "plan_approval", plan: "" })],
        "plan_approval",
      ),
      "Claude asks to go ahead.",
      undefined,
    ],
    [
      "a peer's question: its name",
      message(
        [
          textPart("Peer b asks: Which?"),
          dataPart({ kind: "delegated_input", agent: "b", taskId: "p", text: "Which?", data: [] }),
        ],
        "delegated_input",
      ),
      undefined,
      "b",
    ],
    [
      "the kind read from the data part alone",
      message([dataPart({ kind: "delegated_input", agent: "web-team" })]),
      undefined,
      "web-team",
    ],
    [
      "a peer prompt without a name",
      message([dataPart({ kind: "delegated_input", agent: "" })], "delegated_input"),
      undefined,
      undefined,
    ],
    [
      "Claude's own question",
      message([dataPart({ kind: "ask_user_question", questions: [] })], "ask_user_question"),
      undefined,
      undefined,
    ],
  ])("%s", (_, m, planText, peer) => {
    expect(planOf(m)).toBe(planText);
    expect(peerOf(m)).toBe(peer);
  });

  it("a plan's status reads as what it asks, not as the whole plan", () => {
    expect(statusWords("plan_approval", "input-required", plan)).toBe(
      "Asked you to approve its plan",
    );
  });
});

describe("dryRunOf: what a rewind's dry run answered", () => {
  const diff = "diff --git a/f2.txt b/f2.txt\n--- a/f2.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-f2\n";
  const done = (artifacts: Task["artifacts"]) =>
    task(TaskState.TASK_STATE_COMPLETED, {}, { artifacts });
  it.each<[string, Task, ReturnType<typeof dryRunOf>]>([
    [
      "a worktree's diff (raw bytes)",
      done([
        artifact("d", "diff", [rawPart(Buffer.from(diff), "text/x-diff", "rewind.diff")], {
          kind: "diff",
        }),
      ]),
      { kind: "diff", diff },
    ],
    [
      "an empty diff",
      done([
        artifact("d", "diff", [rawPart(Buffer.from(""), "text/x-diff", "rewind.diff")], {
          kind: "diff",
        }),
      ]),
      { kind: "diff", diff: "" },
    ],
    [
      "the checkpoints' summary",
      done([
        artifact(
          "r",
          "rewind-dry-run",
          [textPart("would restore f2.txt"), dataPart({ filesChanged: ["f2.txt"] })],
          {},
        ),
      ]),
      { kind: "summary", text: "would restore f2.txt" },
    ],
    [
      "a refusal: the failed task's reason",
      task(
        TaskState.TASK_STATE_FAILED,
        {},
        {
          status: {
            state: TaskState.TASK_STATE_FAILED,
            message: message([textPart("Task t2 has not ended yet.")]),
            timestamp: "",
          },
        },
      ),
      { kind: "refused", reason: "Task t2 has not ended yet." },
    ],
  ])("%s", (_, t, expected) => {
    expect(dryRunOf(t)).toEqual(expected);
  });
});
