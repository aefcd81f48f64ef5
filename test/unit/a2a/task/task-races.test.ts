/**
 * The A2A task layer under the interleavings that used to break it, each made deterministic:
 * the whole server minus HTTP (`createAgent`), driven through the scripted query seam, with
 * time by hand and a store whose loads and saves the test can hold.
 */
import { access } from "node:fs/promises";
import { join } from "node:path";
import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import { UnsupportedOperationError } from "@a2a-js/sdk/errors";
import { describe, expect, it, vi } from "vitest";
import { rawPart, textPart } from "../../../../src/contract/messages.js";
import { openText, sdk, reply } from "../../claude/support/sdk-messages.js";
import {
  askPermission,
  describeEvent,
  GatedInbox,
  idsOf,
  isState,
  agent,
  sentStamp,
  type ScriptedAgent,
  type StreamReader,
  firstSend,
} from "../support/agent.js";
import { taskInbox } from "../../../../src/workspace/inbox.js";
import { ANONYMOUS_OWNER } from "../../../../src/identity/caller.js";

const { TASK_STATE_WORKING, TASK_STATE_INPUT_REQUIRED, TASK_STATE_COMPLETED } = TaskState;
const { TASK_STATE_CANCELED, TASK_STATE_FAILED } = TaskState;

/** The runtime answers an interrupt as it does: an aborted result for the turn. */
function tearDownOnInterrupt(agent: ScriptedAgent, stamp: string): void {
  agent.fake.query.onInterrupt = () => agent.fake.query.emit(sdk.abortedResult({ stamp }));
}

const OUTSIDE = { file_path: "/etc/outside.txt", content: "x" };

/** A task whose run asks permission for a Write outside the workspace: parked. */
async function parkedTask(options?: Parameters<typeof firstSend>[1]) {
  const [agent, first, stamp] = await firstSend("write outside the workspace", options);
  await agent.fake.query.feed(sdk.init(), sdk.toolUse("m1", "tu-1", "Write", OUTSIDE, { stamp }));
  const decision = askPermission(agent.fake, "tu-1", "Write", OUTSIDE);
  await first.until(isState(TASK_STATE_INPUT_REQUIRED), "input-required");
  await first.done;
  return { h: agent, first, stamp, decision, ...idsOf(first) };
}

/** Events after the first terminal status: there must be none. */
function afterTerminal(reader: StreamReader): string[] {
  const terminal = reader.events.findIndex(
    (e: StreamResponse) =>
      isState(TASK_STATE_COMPLETED)(e) ||
      isState(TASK_STATE_FAILED)(e) ||
      isState(TASK_STATE_CANCELED)(e),
  );
  return terminal < 0 ? [] : reader.describe().slice(terminal + 1);
}

/**
 * Answers "yes" to the parked task and holds the answer's second load of it (the guard loads it
 * first, the SDK second) as `hold` says; resolves once the load is held.
 */
async function answerHeldAtSecondLoad(
  h: ScriptedAgent,
  ids: { taskId: string; contextId: string },
  hold?: { fail?: boolean; after?: boolean },
) {
  let loads = 0;
  const { held, gate } = h.store.holdNext("load", (id) => id === ids.taskId && ++loads === 2, hold);
  const answer = h.send("yes", ids);
  await held;
  return { answer, gate };
}

const hasMessage = (history: { messageId: string }[] | undefined, text: string) =>
  (history ?? []).some((m) =>
    (m as { parts?: { content?: { value?: unknown } }[] }).parts?.some(
      (p) => p.content?.value === text,
    ),
  );

/** Holds the next save of the task that carries the answer "yes". */
const holdAnswerSave = (h: ScriptedAgent) =>
  h.store.holdNext("save", (t) => typeof t !== "string" && hasMessage(t.history, "yes"));

describe("cancel vs answer", () => {
  it("a cancel between the answer's admission and its execution wins; the answer is refused and never runs", async () => {
    const { h, taskId, contextId, decision, stamp } = await parkedTask();
    tearDownOnInterrupt(h, stamp);
    // The window: the SDK loads the task (input-required), appends the answer and saves it back.
    // Hold it between its load and its save: the cancel lands there.
    const { answer, gate } = await answerHeldAtSecondLoad(
      h,
      { taskId, contextId },
      { after: true },
    );
    const cancel = h.cancel(taskId);
    await vi.waitFor(() => expect(h.agent.executor.isActive(taskId)).toBe(false));
    gate.open();

    expect((await cancel).status?.state).toBe(TASK_STATE_CANCELED);
    const error = (await answer.done) as Error;
    expect(error).toBeInstanceOf(UnsupportedOperationError);
    expect(error.message).toBe(
      `Task ${taskId} cannot take this message: it ended before this answer reached it.`,
    );
    expect(answer.events).toEqual([]);
    // The run was told no, and no new run started: one prompt ever reached Claude.
    expect(await decision).toMatchObject({ behavior: "deny", interrupt: true });
    expect(h.fake.query.sent).toHaveLength(1);
    // The held save (the old input-required snapshot) did not overwrite the terminal state.
    expect((await h.stored(taskId))?.status?.state).toBe(TASK_STATE_CANCELED);
  });

  it("a cancel before the SDK's own check makes the answer get the SDK's terminal-task refusal", async () => {
    const { h, taskId, contextId, stamp } = await parkedTask();
    tearDownOnInterrupt(h, stamp);
    // The guard loads the task first, the SDK a second time: hold the second load.
    const { answer, gate } = await answerHeldAtSecondLoad(h, { taskId, contextId });
    expect((await h.cancel(taskId)).status?.state).toBe(TASK_STATE_CANCELED);
    gate.open();
    const error = (await answer.done) as Error;
    expect(error).toBeInstanceOf(UnsupportedOperationError);
    expect(error.message).toMatch(/terminal state/);
    expect(h.fake.query.sent).toHaveLength(1);
    expect((await h.stored(taskId))?.status?.state).toBe(TASK_STATE_CANCELED);
  });
});

describe("cancel vs first token", () => {
  it("publishes nothing after CANCELED, and the next task says WORKING only once its prompt is sent", async () => {
    const h = await agent();
    const a = h.send("stream slowly");
    const stampA = await sentStamp(h, 0);
    await a.until(isState(TASK_STATE_WORKING));
    const { taskId, contextId } = idsOf(a);
    const b = h.send("then this", { contextId });
    await b.until((e) => describeEvent(e) === "status:SUBMITTED:queued");

    expect((await h.cancel(taskId)).status?.state).toBe(TASK_STATE_CANCELED);
    expect(h.fake.query.interrupts).toBe(1);
    // The runtime had already started answering: its first tokens arrive after the cancel.
    await h.fake.query.feed(
      sdk.init(),
      ...openText("m1", { stamp: stampA }),
      sdk.textDelta(0, "too late"),
    );
    await a.done;
    expect(a.describe().at(-1)).toBe("status:CANCELED");
    expect(afterTerminal(a)).toEqual([]);
    expect((await h.stored(taskId))?.artifacts).toEqual([]);
    // The canceled run has not torn down: B's prompt is not with Claude, so B is not WORKING.
    expect(b.describe()).toEqual(["task:SUBMITTED", "status:SUBMITTED:queued"]);
    expect(h.fake.query.sent).toHaveLength(1);

    await h.fake.query.feed(sdk.abortedResult({ stamp: stampA }));
    const stampB = await sentStamp(h, 1);
    await b.until(isState(TASK_STATE_WORKING));
    await h.fake.query.feed(...reply(stampB, "m2", "B done"));
    await b.until(isState(TASK_STATE_COMPLETED));
    expect(b.describe()).toEqual([
      "task:SUBMITTED",
      "status:SUBMITTED:queued",
      "status:WORKING",
      expect.stringMatching(/^artifact:response-/),
      expect.stringMatching(/^artifact:response-/),
      "status:WORKING:result",
      "status:COMPLETED",
    ]);
  });
});

describe("cancel during the inbox write", () => {
  it("ends CANCELED; Claude never gets the prompt and the attachment is removed", async () => {
    let inbox: GatedInbox | undefined;
    const h = await agent({ inbox: (real) => (inbox = new GatedInbox(real)) });
    const a = h.send([
      textPart("read the attachment"),
      rawPart(Buffer.from("hello"), "text/plain", "notes.txt"),
    ]);
    await inbox?.writeStarted;
    await a.until((e) => e.payload?.$case === "task", "the task");
    const { taskId } = idsOf(a);
    expect((await h.cancel(taskId)).status?.state).toBe(TASK_STATE_CANCELED);
    inbox?.gate.open();
    await vi.waitFor(() => expect(inbox?.removed).toEqual([taskId]));
    await a.done;
    expect(a.describe()).toEqual(["task:SUBMITTED", "status:CANCELED"]);
    // No Claude session was even started, so nothing was sent.
    expect(h.fake.queries).toHaveLength(0);
    await expect(access(join(h.dir, taskInbox(ANONYMOUS_OWNER, taskId)))).rejects.toThrow();
  });
});

describe("timeout vs answer", () => {
  it("an answer already admitted when the timeout fires wins", async () => {
    const { h, taskId, contextId, decision, stamp } = await parkedTask({
      config: { claude: { inputTimeoutMs: 60_000 } },
    });
    const { held, gate } = holdAnswerSave(h);
    const answer = h.send("yes", { taskId, contextId });
    await held;
    h.timers.fireAll();
    expect(h.agent.executor.phaseOf(taskId)?.name).toBe("parked");
    gate.open();
    await answer.until((e) => describeEvent(e) === "status:WORKING:resumed");
    expect(await decision).toEqual({ behavior: "allow", updatedInput: OUTSIDE });
    await h.fake.query.feed(sdk.result({ text: "written", stamp }));
    await answer.until(isState(TASK_STATE_COMPLETED));
  });

  it("the timeout applies as soon as an admitted answer's request fails", async () => {
    const { h, taskId, contextId, decision, stamp } = await parkedTask({
      config: { claude: { inputTimeoutMs: 60_000 } },
    });
    tearDownOnInterrupt(h, stamp);
    const { answer, gate } = await answerHeldAtSecondLoad(h, { taskId, contextId }, { fail: true });
    h.timers.fireAll();
    expect(h.agent.executor.phaseOf(taskId)?.name).toBe("parked");
    gate.open();
    expect(await answer.done).toBeInstanceOf(Error);
    expect(await decision).toMatchObject({ behavior: "deny", interrupt: true });
    await vi.waitFor(async () =>
      expect((await h.stored(taskId))?.status?.state).toBe(TASK_STATE_FAILED),
    );
    const stored = await h.stored(taskId);
    expect(stored?.status?.message?.parts[0]?.content?.value).toMatch(
      /^Stopped: no answer came within 60000 ms/,
    );
  });
});

describe("answer vs answer", () => {
  it("the second answer to one prompt is refused while the first is on its way", async () => {
    const { h, taskId, contextId, decision, stamp } = await parkedTask();
    const { held, gate } = holdAnswerSave(h);
    const first = h.send("yes", { taskId, contextId });
    await held;
    const second = h.send("no", { taskId, contextId });
    expect(((await second.done) as Error).message).toBe(
      `Task ${taskId} cannot take this message: another message is already answering it.`,
    );
    gate.open();
    expect(await decision).toEqual({ behavior: "allow", updatedInput: OUTSIDE });
    await h.fake.query.feed(sdk.result({ text: "written", stamp }));
    await first.until(isState(TASK_STATE_COMPLETED));
    expect(hasMessage((await h.stored(taskId))?.history, "no")).toBe(false);
  });
});

describe("process death while parked", () => {
  it("fails the task in the store, settles the prompt, and ends subscribers' streams", async () => {
    const { h, taskId, decision } = await parkedTask();
    const subscriber = h.agent.requestHandler.resubscribe({ tenant: "", id: taskId }, h.context);
    const events: StreamResponse[] = [];
    const followed = (async () => {
      for await (const e of subscriber) events.push(e);
    })();
    h.fake.query.fail(new Error("killed"));
    expect(await decision).toMatchObject({ behavior: "deny" });
    await followed;
    expect(events.map(describeEvent)).toEqual(["task:INPUT_REQUIRED", "status:FAILED"]);
    await vi.waitFor(async () =>
      expect((await h.stored(taskId))?.status?.state).toBe(TASK_STATE_FAILED),
    );
    const stored = await h.stored(taskId);
    expect(stored?.status?.message?.parts[0]?.content?.value).toMatch(
      /^Claude Code process ended before the run finished/,
    );
  });
});
