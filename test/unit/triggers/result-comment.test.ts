import { TaskState, type Task } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { forgeSchema } from "../../../src/config/forge-schema.js";
import { triggerEntriesSchema } from "../../../src/config/triggers-schema.js";
import { textPart } from "../../../src/contract/messages.js";
import { triggerProblems } from "../../../src/triggers/policy.js";
import { commentBody, commentPlace, finalAnswer } from "../../../src/triggers/result-comment.js";

const github = forgeSchema.parse({ kind: "github", repository: "Octo/Widgets", tokenEnv: "T" });
const gitlab = forgeSchema.parse({ kind: "gitlab", repository: "group/app", tokenEnv: "T" });

const task = (state: TaskState, answers: string[], status = ""): Task =>
  ({
    id: "t-1",
    contextId: "c-1",
    status: { state, message: status ? { parts: [textPart(status)] } : undefined },
    artifacts: answers.map((a, i) => ({
      artifactId: `response-r${i}`,
      name: "response",
      parts: [textPart(a)],
    })),
    history: [],
    metadata: {},
  }) as unknown as Task;

describe("where a result comment goes", () => {
  it("on the event's issue or request, on the configured repository only", () => {
    expect(commentPlace("github:octo/widgets#42", github)).toEqual({
      ok: true,
      target: { kind: "issue", number: 42 },
    });
    expect(commentPlace("gitlab:group/app!7", gitlab)).toEqual({
      ok: true,
      target: { kind: "pull-request", number: 7 },
    });
    expect(commentPlace("gitlab:group/app#3", gitlab)).toMatchObject({
      target: { kind: "issue", number: 3 },
    });
    expect(commentPlace("github:octo/other#1", github)).toEqual({
      ok: false,
      reason: "the event is about octo/other, the result forge's repository is Octo/Widgets",
    });
    expect(commentPlace("gitlab:group/app#3", github)).toMatchObject({ ok: false });
    expect(commentPlace(undefined, github)).toMatchObject({ ok: false });
    expect(commentPlace("some-alert", github)).toMatchObject({ ok: false });
  });
});

describe("what a result comment says", () => {
  it("the last run's answer, else the status text", () => {
    expect(finalAnswer(task(TaskState.TASK_STATE_COMPLETED, ["first", "second"]))).toBe("second");
    expect(finalAnswer(task(TaskState.TASK_STATE_FAILED, [], "the model refused"))).toBe(
      "the model refused",
    );
  });

  it("how it ended, the answer cut at the cap, and the console link", () => {
    const body = commentBody({
      trigger: "fix",
      task: task(TaskState.TASK_STATE_FAILED, ["x".repeat(50)]),
      consoleUrl: "https://a2a.example/console/",
      maxAnswerChars: 10,
    });
    expect(body).toBe(
      [
        "The task started by the trigger `fix` failed.",
        "",
        "xxxxxxxxxx…",
        "",
        "_(The answer is cut at 10 characters; the task has it whole.)_",
        "",
        "[Open the task in the console](https://a2a.example/console/#task=t-1)",
      ].join("\n"),
    );
  });
});

describe("its config", () => {
  const trigger = (result: unknown) =>
    triggerEntriesSchema.safeParse({
      fix: {
        kind: "webhook",
        verify: "github",
        secretEnv: "S",
        prompt: "p",
        allowUnsandboxed: true,
        result,
      },
    });

  it("takes a forge and defaults comment to true; refuses a bad forge", () => {
    const ok = trigger({ forge: { kind: "github", repository: "o/r", tokenEnv: "GH" } });
    const fix = ok.data?.fix;
    expect(fix?.kind === "webhook" && fix.result).toEqual({
      comment: true,
      maxAnswerChars: 4000,
      forge: { kind: "github", repository: "o/r", tokenEnv: "GH" },
    });
    expect(
      trigger({ forge: { kind: "bitbucket", repository: "o/r", tokenEnv: "GH" } }).success,
    ).toBe(false);
  });

  it("an unset forge token stops startup, naming the variable", () => {
    const parsed = trigger({ forge: { kind: "github", repository: "o/r", tokenEnv: "GH_UNSET" } });
    const config = {
      triggers: parsed.data ?? {},
      claude: { sandbox: "strict" },
      replay: { enabled: true },
    } as unknown as Parameters<typeof triggerProblems>[0];
    expect(triggerProblems(config, { S: "s" }, undefined)).toEqual([
      "triggers.fix: the environment variable GH_UNSET (result.forge.tokenEnv) is not set.",
    ]);
  });
});
