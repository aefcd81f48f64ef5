import type { Message } from "@a2a-js/sdk";
import type { PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { DENIAL, TEXT } from "../../../../src/contract/texts.js";
import type { Answer, InputRequest } from "../../../../src/a2a/interaction/answers.js";
import { DenialLedger } from "../../../../src/a2a/interaction/loop-protection.js";
import type { TurnPolicy } from "../../../../src/a2a/task/environment.js";
import { TaskInputRequests, verdictFor } from "../../../../src/a2a/task/input-requests.js";
import { ManualTimers } from "../support/agent.js";

const permission: InputRequest = {
  kind: "permission",
  toolName: "Write",
  input: { file_path: "a.txt" },
  title: undefined,
  decisionReason: undefined,
};
const question: InputRequest = {
  kind: "question",
  toolName: "AskUserQuestion",
  input: { questions: [{ question: "Which?" }] },
  questions: [{ question: "Which?" }],
};

describe("verdictFor", () => {
  const rows: {
    name: string;
    prompt: InputRequest;
    answer: Answer;
    /** Denials recorded before this answer, with a limit of 2. */
    before: number;
    result: PermissionResult;
    stop: string | undefined;
  }[] = [
    {
      name: "a question's answers go through as the call's input",
      prompt: question,
      answer: { kind: "question", answers: { "Which?": "B" } },
      before: 0,
      result: {
        behavior: "allow",
        updatedInput: { ...question.input, answers: { "Which?": "B" } },
      },
      stop: undefined,
    },
    {
      name: "a granted permission runs the call with its own input",
      prompt: permission,
      answer: { kind: "permission", decision: { decision: "allow" } },
      before: 1,
      result: { behavior: "allow", updatedInput: permission.input },
      stop: undefined,
    },
    {
      name: "a denial under the limit tells Claude why, the task goes on",
      prompt: permission,
      answer: { kind: "permission", decision: { decision: "deny", reason: "no" } },
      before: 0,
      result: { behavior: "deny", message: DENIAL.byClient("no") },
      stop: undefined,
    },
    {
      name: "the denial that reaches the limit interrupts Claude and stops the task",
      prompt: permission,
      answer: { kind: "permission", decision: { decision: "deny", reason: undefined } },
      before: 1,
      result: { behavior: "deny", message: DENIAL.byClient(undefined), interrupt: true },
      stop: TEXT.tooManyDenials(2, 2, "Write"),
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const ledger = new DenialLedger(2);
      for (let i = 0; i < row.before; i++) ledger.deny("Read", { n: i }, undefined);
      expect(verdictFor(row.prompt, row.answer, ledger)).toEqual({
        result: row.result,
        stop: row.stop,
      });
    });
  }
});

const policy: Pick<TurnPolicy, "permissionPrompts" | "maxPermissionDenials" | "inputTimeoutMs"> = {
  permissionPrompts: "input-required",
  maxPermissionDenials: 3,
  inputTimeoutMs: 1_000,
};

function setup(p = policy) {
  const timers = new ManualTimers();
  const fired: number[] = [];
  const prompts = new TaskInputRequests(p, timers, () => fired.push(fired.length));
  return { timers, fired, prompts };
}

function queued(
  prompts: TaskInputRequests,
  toolName = "Write",
  input: Record<string, unknown> = {},
) {
  const request = prompts.request(toolName, input, {});
  if (request.kind !== "queued") throw new Error(`not queued: ${JSON.stringify(request)}`);
  return request;
}

const reply = (messageId: string, text: string): Pick<Message, "parts" | "messageId"> => ({
  messageId,
  parts: [{ content: { $case: "text", value: text } } as Message["parts"][number]],
});

describe("TaskInputRequests.request", () => {
  const rows: {
    name: string;
    permissionPrompts: TurnPolicy["permissionPrompts"];
    toolName: string;
    input: Record<string, unknown>;
    expected: "queued" | PermissionResult;
  }[] = [
    {
      name: "a permission request is queued for the client",
      permissionPrompts: "input-required",
      toolName: "Write",
      input: { file_path: "a" },
      expected: "queued",
    },
    {
      name: "a well-formed question is queued",
      permissionPrompts: "deny",
      toolName: "AskUserQuestion",
      input: { questions: [{ question: "Which?" }] },
      expected: "queued",
    },
    {
      name: "a malformed question is denied at once",
      permissionPrompts: "input-required",
      toolName: "AskUserQuestion",
      input: { questions: [] },
      expected: { behavior: "deny", message: DENIAL.malformedQuestion },
    },
    {
      name: "prompts turned off: a permission request is denied at once",
      permissionPrompts: "deny",
      toolName: "Write",
      input: {},
      expected: { behavior: "deny", message: DENIAL.byClient(DENIAL.promptsOff) },
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const { prompts } = setup({ ...policy, permissionPrompts: row.permissionPrompts });
      const request = prompts.request(row.toolName, row.input, {});
      if (row.expected === "queued") {
        expect(request.kind).toBe("queued");
        expect(prompts.size).toBe(1);
      } else {
        expect(request).toEqual({
          kind: "verdict",
          verdict: { result: row.expected, stop: undefined },
        });
        expect(prompts.size).toBe(0);
      }
    });
  }

  it("the same request again after its denial stops the task (loop protection)", async () => {
    const { prompts } = setup();
    const first = queued(prompts, "Write", { file_path: "a" });
    prompts.show(first.entry);
    expect(prompts.claim(reply("m1", "no"))).toBeUndefined();
    const claimed = prompts.claimedHead("m1");
    expect(claimed && prompts.settleAnswered(claimed)).toBeUndefined();
    expect((await first.result).behavior).toBe("deny");
    expect(prompts.request("Write", { file_path: "a" }, {})).toEqual({
      kind: "verdict",
      verdict: {
        result: { behavior: "deny", message: DENIAL.byClient(undefined), interrupt: true },
        stop: TEXT.sameDenialAgain("Write"),
      },
    });
  });
});

describe("TaskInputRequests: showing, claiming and answering", () => {
  it("only the head is ever unshown-and-next; showing it starts the input timeout", () => {
    const { prompts, timers } = setup();
    const a = queued(prompts);
    queued(prompts, "Edit");
    expect(prompts.unshownHead()).toBe(a.entry);
    expect(prompts.show(a.entry)).toBe(a.entry.request);
    expect(prompts.unshownHead()).toBeUndefined();
    expect(timers.armed).toBe(1);
  });

  it("no input timeout configured: showing arms nothing", () => {
    const { prompts, timers } = setup({ ...policy, inputTimeoutMs: undefined });
    prompts.show(queued(prompts).entry);
    expect(timers.armed).toBe(0);
  });

  const claims: { name: string; shown: boolean; first?: string; text: string; why?: string }[] = [
    { name: "an unshown prompt cannot be claimed", shown: false, text: "yes", why: "not waiting" },
    { name: "the shown prompt is claimed by a readable answer", shown: true, text: "yes" },
    {
      name: "a second message cannot claim it",
      shown: true,
      first: "yes",
      text: "yes",
      why: "already answering",
    },
  ];
  for (const row of claims) {
    it(row.name, () => {
      const { prompts } = setup();
      const a = queued(prompts);
      if (row.shown) prompts.show(a.entry);
      if (row.first !== undefined) prompts.claim(reply("m0", row.first));
      const why = prompts.claim(reply("m1", row.text));
      if (row.why === undefined) expect(why).toBeUndefined();
      else expect(why).toContain(row.why);
      expect(prompts.claimedBy("m1")).toBe(row.why === undefined);
      expect(prompts.claimedHead("m1") !== undefined).toBe(row.why === undefined);
    });
  }

  it("an answer settles the head with its verdict; the next prompt becomes the unshown head", async () => {
    const { prompts } = setup();
    const a = queued(prompts);
    const b = queued(prompts, "Edit");
    prompts.show(a.entry);
    prompts.claim(reply("m1", "yes"));
    const claimed = prompts.claimedHead("m1");
    expect(claimed?.entry).toBe(a.entry);
    expect(claimed && prompts.settleAnswered(claimed)).toBeUndefined();
    expect(await a.result).toEqual({ behavior: "allow", updatedInput: {} });
    expect(prompts.size).toBe(1);
    expect(prompts.unshownHead()).toBe(b.entry);
  });
});

describe("TaskInputRequests: the input timeout", () => {
  const rows: {
    name: string;
    claimed: boolean;
    /** `deferTimeout`: an answer is on its way, the task waits for it. */
    defers: boolean;
    /** `unclaim` afterwards: that answer's request failed, so the timeout applies now. */
    appliesOnUnclaim: boolean;
  }[] = [
    {
      name: "no answer on its way: it applies",
      claimed: false,
      defers: false,
      appliesOnUnclaim: false,
    },
    {
      name: "an answer on its way wins, unless its request fails",
      claimed: true,
      defers: true,
      appliesOnUnclaim: true,
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const { prompts, timers, fired } = setup();
      prompts.show(queued(prompts).entry);
      if (row.claimed) prompts.claim(reply("m1", "yes"));
      timers.fireAll();
      expect(fired).toHaveLength(1);
      expect(prompts.deferTimeout()).toBe(row.defers);
      expect(prompts.unclaim("m1")).toBe(row.appliesOnUnclaim);
    });
  }

  it("a claim withdrawn before the timeout fired: nothing applies", () => {
    const { prompts, fired } = setup();
    prompts.show(queued(prompts).entry);
    prompts.claim(reply("m1", "yes"));
    expect(prompts.unclaim("m1")).toBe(false);
    expect(fired).toHaveLength(0);
  });

  it("clearing the timer forgets a timeout that fired while an answer was in flight", () => {
    const { prompts, timers, fired } = setup();
    prompts.show(queued(prompts).entry);
    prompts.claim(reply("m1", "yes"));
    timers.fireAll();
    expect(prompts.deferTimeout()).toBe(true);
    prompts.clearTimer();
    expect(prompts.unclaim("m1")).toBe(false);
    expect(fired).toHaveLength(1);
  });

  it("clearing the timer before it fires: it never fires", () => {
    const { prompts, timers, fired } = setup();
    prompts.show(queued(prompts).entry);
    prompts.clearTimer();
    timers.fireAll();
    expect(fired).toHaveLength(0);
  });
});

describe("TaskInputRequests.withdraw", () => {
  const rows: { name: string; show: boolean; settledFirst: boolean; expected: string }[] = [
    { name: "the shown prompt", show: true, settledFirst: false, expected: "shown" },
    { name: "a prompt the client never saw", show: false, settledFirst: false, expected: "unseen" },
    {
      name: "a prompt settled already",
      show: true,
      settledFirst: true,
      expected: "settled_already",
    },
  ];
  for (const row of rows) {
    it(`${row.name}: ${row.expected}`, async () => {
      const { prompts } = setup();
      const a = queued(prompts);
      if (row.show) prompts.show(a.entry);
      if (row.settledFirst) prompts.settleAll({ behavior: "deny", message: DENIAL.stopped });
      expect(prompts.withdraw(a.entry)).toBe(row.expected);
      expect(prompts.size).toBe(0);
      const expected = row.settledFirst ? DENIAL.stopped : DENIAL.withdrawn;
      expect(await a.result).toEqual({ behavior: "deny", message: expected });
    });
  }

  it("a queued prompt behind the shown one is withdrawn unseen; the head stays shown", () => {
    const { prompts } = setup();
    const a = queued(prompts);
    const b = queued(prompts, "Edit");
    prompts.show(a.entry);
    expect(prompts.withdraw(b.entry)).toBe("unseen");
    expect(prompts.size).toBe(1);
    expect(prompts.unshownHead()).toBeUndefined();
  });
});

describe("TaskInputRequests.settleAll", () => {
  it("settles every pending prompt with the one result", async () => {
    const { prompts } = setup();
    const results = [queued(prompts).result, queued(prompts, "Edit").result];
    prompts.settleAll({ behavior: "deny", message: DENIAL.taskOver });
    expect(prompts.size).toBe(0);
    for (const r of await Promise.all(results)) {
      expect(r).toEqual({ behavior: "deny", message: DENIAL.taskOver });
    }
  });
});
