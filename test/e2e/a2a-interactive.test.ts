/**
 * Interactive tasks: AskUserQuestion and permission prompts bridged to input-required, answered by
 * the client, with loop protection. docs/testing.md's smoke:input and smoke:permission, and more.
 */
import { access, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type Part } from "@a2a-js/sdk";
import { TEXT } from "../../src/contract/texts.js";
import {
  a2a,
  afterTool,
  asks,
  COLOUR_QUESTION,
  dataPart,
  describeStream,
  headTask as head,
  idsOf,
  lastStatus,
  messageText,
  question,
  reply,
  says,
  sendRequest,
  text,
  textPart,
  toolUse,
  userMessage,
  watch,
  writes,
  type A2AHarness,
  type HarnessOptions,
  type Rule,
} from "../support/harness/index.js";

async function send(harness: A2AHarness, parts: Part[] | string, ids = {}) {
  return harness.stream(parts, ids);
}

/**
 * A server whose Claude, on "Save the report", writes report.txt OUTSIDE its workspace (acceptEdits
 * does not allow that by itself), then follows `after(outside)`. With `folder` the outside folder
 * exists, so that an allowed Write really creates the file.
 */
async function savingOutside(
  after: (outside: string) => Rule[],
  o: { folder?: boolean; config?: HarnessOptions["config"] } = {},
): Promise<{ h: A2AHarness; outside: string }> {
  const h = await a2a(o.config === undefined ? {} : { config: o.config });
  const folder = join(h.bench.sandbox.root, "outside");
  const outside = join(folder, "report.txt");
  if (o.folder === true) await mkdir(folder);
  h.bench.model.setRules([
    writes("Save the report", outside, "report\n", "write-outside"),
    ...after(outside),
  ]);
  return { h, outside };
}

describe("interactive tasks", () => {
  it("AskUserQuestion parks the task in input-required; the answer resumes it", async () => {
    const h = await a2a({
      rules: asks("Paint the fence", {
        answer: /blue/,
        then: "Painting it blue.",
        name: "after-answer",
      }),
    });
    const first = await send(h, "Paint the fence");
    const parked = lastStatus(first);
    expect(parked).toEqual({
      state: TaskState.TASK_STATE_INPUT_REQUIRED,
      kind: "ask_user_question",
      text: "Which colour do you prefer?",
      data: { kind: "ask_user_question", questions: [COLOUR_QUESTION] },
    });
    const { taskId, contextId } = idsOf(first);

    const second = await send(h, "blue", { taskId, contextId });
    // A resume: the stored task verbatim (same id, still input-required), then `resumed`.
    const snapshot = head(second);
    expect(snapshot.id).toBe(taskId);
    expect(snapshot.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(messageText(snapshot.history.at(-1))).toBe("blue");
    const resumed = second[1]?.payload;
    expect(resumed?.$case).toBe("statusUpdate");
    if (resumed?.$case === "statusUpdate") {
      expect(resumed.value.status?.state).toBe(TaskState.TASK_STATE_WORKING);
      // Every status message has a part (the protocol requires one); the kind is on the message.
      expect(messageText(resumed.value.status?.message)).toBe(TEXT.resumed);
      expect(resumed.value.status?.message?.metadata).toEqual({ kind: "resumed" });
      // The event carries only its number (docs/reliability.md); the kind is on the message.
      expect(Object.keys(resumed.value.metadata ?? {})).toEqual(["eventNumber"]);
    }
    expect(describeStream(second).at(-1)).toBe("status:completed");
    expect(describeStream(second).at(-2)).toBe("status:working:result");
    // No intermediate kind outlives the turn on the stored task.
    const stored = await h.client.getTask({ tenant: "", id: taskId, historyLength: 0 });
    expect(stored.metadata?.kind).toBeUndefined();

    const answered = h.bench.model.requests.find((r) => r.rule === "after-answer")?.request;
    expect(answered?.toolResults[0]?.content).toContain("Your questions have been answered");
    expect(answered?.toolResults[0]?.content).toContain('"Which colour do you prefer?"="blue"');
    expect(h.spawns()).toBe(1);
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("answers two questions at once with a structured answers data part", async () => {
    const size = question("Which size?", "Size", [
      ["S", "small"],
      ["L", "large"],
    ]);
    const h = await a2a({
      rules: [
        {
          match: { lastUserText: "Order a shirt", toolResult: false },
          reply: reply(toolUse("AskUserQuestion", { questions: [COLOUR_QUESTION, size] })),
        },
        afterTool(/red/, "Ordered.", "answered"),
      ],
    });
    const first = await send(h, "Order a shirt");
    expect(lastStatus(first).text).toBe("Which colour do you prefer?\nWhich size?");
    const answer = dataPart({
      answers: { "Which colour do you prefer?": "red", "Which size?": "L" },
    });
    const second = await send(h, [textPart("whatever"), answer], idsOf(first));
    expect(describeStream(second).at(-1)).toBe("status:completed");
    const result = h.bench.model.requests.find((r) => r.rule === "answered")?.request
      .toolResults[0];
    expect(result?.content).toContain('"Which colour do you prefer?"="red"');
    expect(result?.content).toContain('"Which size?"="L"');
  });

  it("a structured deny beats a contradicting yes, and a repeated request stops the loop", async () => {
    const { h, outside } = await savingOutside(
      (path) => [
        // The model ignores the instruction and asks for exactly the same thing again.
        {
          name: "asks-again",
          match: { toolResult: /The user denied this action/ },
          reply: reply(toolUse("Write", { file_path: path, content: "report\n" })),
        },
      ],
      { folder: true },
    );
    const first = await send(h, "Save the report");
    const parked = lastStatus(first);
    expect(parked.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(parked.kind).toBe("permission_request");
    expect(parked.data).toMatchObject({
      kind: "permission_request",
      toolName: "Write",
      input: { file_path: outside, content: "report\n" },
    });
    expect(parked.text).toMatch(/\.$/);

    const deny = dataPart({
      kind: "permission_response",
      decision: "deny",
      reason: "no writes outside the repo",
    });
    const second = await send(h, [textPart("yes"), deny], idsOf(first));
    const shape = describeStream(second);
    expect(shape.filter((s) => s.startsWith("status:failed"))).toHaveLength(1);
    expect(lastStatus(second)).toMatchObject({
      state: TaskState.TASK_STATE_FAILED,
      kind: undefined,
      text: "Stopped: Claude requested the same denied permission again (Write).",
    });
    // Claude got the denial with the reason and the instruction not to ask again.
    const denied = h.bench.model.requests.find((r) => r.rule === "asks-again")?.request;
    expect(denied?.toolResults[0]?.content).toContain(
      "The user denied this action (no writes outside the repo). Do not request the same permission again; pick another approach or finish the task and explain.",
    );
    await expect(access(outside)).rejects.toThrow();
    // The second request for the same key never reached the client: one input-required only.
    expect(shape).not.toContain("status:input-required:permission_request");
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("`oui, vas-y` allows and the tool runs", async () => {
    const { h, outside } = await savingOutside(
      () => [afterTool(/created successfully/, "Saved.", "written")],
      { folder: true },
    );
    const first = await send(h, "Save the report");
    expect(lastStatus(first).kind).toBe("permission_request");
    const second = await send(h, "oui, vas-y", idsOf(first));
    expect(describeStream(second).at(-1)).toBe("status:completed");
    expect(await readFile(outside, "utf8")).toBe("report\n");
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("a free-text deny is handed to Claude, which goes on", async () => {
    const { h } = await savingOutside(() => [
      afterTool(/The user denied this action/, "Understood, I will not save it.", "gives-up"),
    ]);
    const first = await send(h, "Save the report");
    const second = await send(h, "no, keep it in memory", idsOf(first));
    expect(describeStream(second).at(-1)).toBe("status:completed");
    const result = h.bench.model.requests.find((r) => r.rule === "gives-up")?.request
      .toolResults[0];
    expect(result?.isError).toBe(true);
    expect(result?.content).toContain("The user denied this action (no, keep it in memory).");
  });

  it("a free-text `not sure` denies: the file stays unwritten and Claude goes on", async () => {
    // The directory exists, so an allowed Write would really create the file.
    const { h, outside } = await savingOutside(
      () => [
        afterTool(/The user denied this action/, "Understood, I will not save it.", "gives-up"),
        afterTool(/created successfully/, "Saved.", "written"),
      ],
      { folder: true },
    );
    const first = await send(h, "Save the report");
    expect(lastStatus(first).kind).toBe("permission_request");
    const second = await send(h, "not sure", idsOf(first));
    expect(describeStream(second).at(-1)).toBe("status:completed");
    const result = h.bench.model.requests.find((r) => r.rule === "gives-up")?.request
      .toolResults[0];
    expect(result?.isError).toBe(true);
    // Undecided, so Claude is told the reply was unclear rather than handed the user's words.
    expect(result?.content).toContain(
      "The user denied this action (the reply was not a clear yes or no).",
    );
    expect(h.bench.model.requests.some((r) => r.rule === "written")).toBe(false);
    await expect(access(outside)).rejects.toThrow();
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("stops a task at claude.maxPermissionDenials denials", async () => {
    const h = await a2a({ config: { claude: { maxPermissionDenials: 2 } } });
    const root = h.bench.sandbox.root;
    let n = 0;
    h.bench.model.setRules([
      {
        name: "write",
        match: {
          when: (r) => r.lastUserText.includes("Save the report") || r.toolResults.length > 0,
        },
        // A different file each time: loop protection by key does not apply, the count does.
        reply: () =>
          reply(toolUse("Write", { file_path: join(root, `out-${++n}.txt`), content: "x" })),
      },
    ]);
    const first = await send(h, "Save the report");
    const second = await send(h, "no", idsOf(first));
    expect(lastStatus(second).kind).toBe("permission_request");
    const third = await send(h, "no", idsOf(first));
    expect(lastStatus(third)).toMatchObject({
      state: TaskState.TASK_STATE_FAILED,
      text: "Stopped: 2 permission request(s) were denied in this task (claude.maxPermissionDenials is 2); the last was for Write.",
    });
    expect(describeStream(third).filter((s) => s.startsWith("status:failed"))).toHaveLength(1);
  });

  it("denies at once with claude.permissionPrompts = deny", async () => {
    const { h } = await savingOutside(
      () => [
        afterTool(/turned off on this server/, "I cannot save outside the workspace.", "denied"),
      ],
      { config: { claude: { permissionPrompts: "deny" } } },
    );
    const events = await send(h, "Save the report");
    const shape = describeStream(events);
    expect(shape).not.toContain("status:input-required:permission_request");
    expect(shape.at(-1)).toBe("status:completed");
    expect(h.bench.model.requests.map((r) => r.rule)).toEqual(["write-outside", "denied"]);
  });

  it("cancels a parked task: the prompt is denied, the task ends CANCELED, the context goes on", async () => {
    const h = await a2a({
      rules: [
        {
          match: { lastUserText: "Paint the fence", toolResult: false },
          reply: reply(toolUse("AskUserQuestion", { questions: [COLOUR_QUESTION] })),
        },
        says("Hello again", "Hi!"),
      ],
    });
    const first = await send(h, "Paint the fence");
    const { taskId, contextId } = idsOf(first);
    const canceled = await h.client.cancelTask({ tenant: "", id: taskId, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const next = await send(h, "Hello again", { contextId });
    expect(describeStream(next).at(-1)).toBe("status:completed");
    expect(h.spawns()).toBe(1);
  });

  it("lets exactly one of two racing answers resume a parked task", async () => {
    const h = await a2a({
      rules: asks("Paint the fence", { then: "Done." }),
    });
    const first = await send(h, "Paint the fence");
    const ids = idsOf(first);
    const results = await Promise.allSettled([
      h.client.sendMessage(sendRequest(userMessage("red", ids))),
      h.client.sendMessage(sendRequest(userMessage("blue", ids))),
    ]);
    const fulfilled = results.filter((r) => r.status === "fulfilled");
    const rejected = results.filter((r) => r.status === "rejected");
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect(String((rejected[0] as PromiseRejectedResult).reason)).toMatch(
      new RegExp(
        `Task ${ids.taskId} (cannot take this message: another message is already answering it|is still working)`,
      ),
    );
    const stored = await h.client.getTask({ tenant: "", id: ids.taskId, historyLength: undefined });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    // Only the winning answer is in the history.
    const answers = stored.history.filter((m) => ["red", "blue"].includes(messageText(m)));
    expect(answers).toHaveLength(1);
  });

  it("refuses an answer to a task that asks nothing, touching nothing", async () => {
    const h = await a2a({ rules: [{ match: {}, reply: reply(text("Done.")) }] });
    const first = await send(h, "Just do it");
    await expect(
      h.client.sendMessage(sendRequest(userMessage("yes", idsOf(first)))),
    ).rejects.toThrow(/terminal state/);
  });

  it("SubscribeToTask on a parked task yields the task, then the resumed turn's events", async () => {
    const h = await a2a({
      rules: asks("Paint the fence", { answer: /red/, then: "Red it is." }),
    });
    const first = await send(h, "Paint the fence");
    const ids = idsOf(first);
    const sub = watch(h.client.resubscribeTask({ tenant: "", id: ids.taskId }));
    await sub.first((e) => e.payload?.$case === "task");
    await send(h, "red", ids);
    const shape = describeStream(await sub.done);
    expect(shape[0]).toBe("task:input-required");
    expect(shape).toContain("status:working:resumed");
    expect(shape.at(-1)).toBe("status:completed");
  });

  it("withdraws an unanswered prompt after claude.inputTimeoutMs and fails the task", async () => {
    const h = await a2a({
      config: { claude: { inputTimeoutMs: 300 } },
      rules: [
        {
          match: { lastUserText: "Paint the fence", toolResult: false },
          reply: reply(toolUse("AskUserQuestion", { questions: [COLOUR_QUESTION] })),
        },
      ],
    });
    const first = await send(h, "Paint the fence");
    const { taskId } = idsOf(first);
    const sub = watch(h.client.resubscribeTask({ tenant: "", id: taskId }));
    const failed = await sub.first(
      (e) =>
        e.payload?.$case === "statusUpdate" &&
        e.payload.value.status?.state === TaskState.TASK_STATE_FAILED,
    );
    expect(
      failed.payload?.$case === "statusUpdate" && messageText(failed.payload.value.status?.message),
    ).toBe(
      "Stopped: no answer came within 300 ms (claude.inputTimeoutMs); the request was denied.",
    );
    const stored = await h.client.getTask({ tenant: "", id: taskId, historyLength: undefined });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_FAILED);
  });
});
