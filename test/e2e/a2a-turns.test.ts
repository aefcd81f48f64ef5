/** Turns, contexts, cancellation and sessions through the official A2A client. */
import { describe, expect, it } from "vitest";
import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import {
  a2a,
  describeStream,
  idsOf,
  messageText,
  reply,
  resultOf,
  says,
  sendRequest,
  sharedA2A,
  streamsSlowly,
  text,
  userMessage,
  type A2AHarness,
} from "../support/harness/index.js";

const taskIdOf = (e: StreamResponse | undefined) =>
  e?.payload?.$case === "task" ? e.payload.value.id : "";
const isArtifact = (e: StreamResponse) => e.payload?.$case === "artifactUpdate";

/** `prompt` sent as a stream, once its run streams text: the stream and its task's ids. */
async function streaming(h: A2AHarness, prompt: string) {
  const stream = h.watch(prompt);
  await stream.first(isArtifact);
  return { stream, ...idsOf(stream.items) };
}

describe("A2A server: turns and contexts", () => {
  // One server for the tests that need no config of their own: each gets fresh contexts and rules.
  const server = sharedA2A();

  it("CancelTask stops a running task with one CANCELED status; the context goes on", async () => {
    const h = server([streamsSlowly("Write a long essay"), says("Are you still there?", "Yes.")]);
    const { stream, taskId } = await streaming(h, "Write a long essay");
    const canceled = await h.client.cancelTask({ tenant: "", id: taskId, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);

    const shape = describeStream(await stream.done);
    expect(shape.filter((s) => s.startsWith("status:canceled"))).toHaveLength(1);
    expect(shape.at(-1)).toBe("status:canceled");
    expect(shape).not.toContain("status:completed");
    expect(shape).not.toContain("status:failed");
    const stored = await h.client.getTask({ tenant: "", id: taskId, historyLength: undefined });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_CANCELED);

    // Canceling again returns the canceled task; the context is still usable.
    const contextId = stored.contextId;
    const next = await h.send("Are you still there?", { contextId });
    expect(next.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultOf(next)).toBe("Yes.");
    expect(h.spawns()).toBe(1);
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("a message for a working task is refused; the running turn completes untouched", async () => {
    const h = server([streamsSlowly("Count slowly")]);
    const { stream, taskId, contextId } = await streaming(h, "Count slowly");

    await expect(
      h.client.sendMessage(sendRequest(userMessage("change of plan", { taskId, contextId }))),
    ).rejects.toThrow(
      `Task ${taskId} is still working; wait for input-required or send a new message without taskId.`,
    );

    const shape = describeStream(await stream.done);
    expect(shape.at(-1)).toBe("status:completed");
    expect(shape.filter((s) => s === "task:submitted")).toHaveLength(1);
    const stored = await h.client.getTask({ tenant: "", id: taskId, historyLength: undefined });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    // The refused message touched nothing: not in the history, never sent to Claude.
    expect(stored.history.some((m) => messageText(m) === "change of plan")).toBe(false);
    expect(
      h.bench.model.messageRequests.some((r) => r.lastUserText.includes("change of plan")),
    ).toBe(false);
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("runs two tasks of one context in one Claude process, the second seeing the first", async () => {
    const h = server([
      says("My name is Ada", "Nice to meet you, Ada."),
      says("What is my name?", "Your name is Ada."),
    ]);
    const first = await h.send("My name is Ada");
    const second = await h.send("What is my name?", { contextId: first.contextId });
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(second.id).not.toBe(first.id);
    expect(h.spawns()).toBe(1);
    const request = h.bench.model.messageRequests.at(-1);
    expect(JSON.stringify(request?.body.messages)).toContain("Nice to meet you, Ada.");
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("resumes a context's Claude session after a server restart (session file)", async () => {
    const h = await a2a({
      rules: [
        says("Remember the word kiwi", "Remembered: kiwi."),
        says("Which word?", "The word was kiwi."),
      ],
    });
    const first = await h.send("Remember the word kiwi");
    await h.restart();
    const second = await h.send("Which word?", { contextId: first.contextId });
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(h.spawns()).toBe(2);
    const request = h.bench.model.messageRequests.at(-1);
    expect(JSON.stringify(request?.body.messages)).toContain("Remembered: kiwi.");
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("queues a second task on a busy context (SUBMITTED, kind queued) and runs it after the first", async () => {
    const h = server([streamsSlowly("First job"), says("Second job", "Second done.")]);
    const { stream: one, contextId } = await streaming(h, "First job");
    const two = h.watch("Second job", { contextId });
    const queued = await two.first((e) => e.payload?.$case === "statusUpdate");
    expect(describeStream([queued])).toEqual(["status:submitted:queued"]);
    expect(
      messageText(
        queued.payload?.$case === "statusUpdate" ? queued.payload.value.status?.message : undefined,
      ),
    ).toMatch(/^Queued: another task is running in this context/);

    const firstShape = describeStream(await one.done);
    const secondShape = describeStream(await two.done);
    expect(firstShape.at(-1)).toBe("status:completed");
    expect(secondShape.at(-1)).toBe("status:completed");
    // Claude saw the second prompt only after the first turn's answer.
    const rules = h.bench.model.requests.map((r) => r.request.lastUserText.includes("Second job"));
    expect(rules).toEqual([false, true]);
    expect(h.spawns()).toBe(1);
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("cancels a queued task without touching the running one", async () => {
    const h = server([streamsSlowly("Long job"), says("Third job", "Third done.")]);
    const { stream: one, contextId } = await streaming(h, "Long job");
    const two = h.watch("Queued job", { contextId });
    const queuedId = taskIdOf(await two.first(() => true));
    await two.first((e) => e.payload?.$case === "statusUpdate");
    const canceled = await h.client.cancelTask({ tenant: "", id: queuedId, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(describeStream(await two.done)).toEqual([
      "task:submitted",
      "status:submitted:queued",
      "status:canceled",
    ]);
    expect(describeStream(await one.done).at(-1)).toBe("status:completed");
    // The context goes on with the next task; the canceled prompt never reached Claude.
    const third = await h.send("Third job", { contextId });
    expect(third.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(h.bench.model.messageRequests.some((r) => r.lastUserText.includes("Queued job"))).toBe(
      false,
    );
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("runs two contexts in parallel", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const h = server([
      {
        match: { lastUserText: /Parallel (A|B)/ },
        reply: async (req) => {
          await gate;
          return reply(text(`Done ${/Parallel (A|B)/.exec(req.lastUserText)?.[1]}`));
        },
      },
    ]);
    const a = h.send("Parallel A");
    const b = h.send("Parallel B");
    // Both model requests are in flight at once (each held by the gate): no context waits.
    await h.bench.model.waitForRequest((r) => r.lastUserText.includes("Parallel A"));
    await h.bench.model.waitForRequest((r) => r.lastUserText.includes("Parallel B"));
    release();
    const [ta, tb] = await Promise.all([a, b]);
    expect(ta.contextId).not.toBe(tb.contextId);
    expect(resultOf(ta)).toBe("Done A");
    expect(resultOf(tb)).toBe("Done B");
    expect(h.spawns()).toBe(2);
    expect(h.bench.model.unmatched).toEqual([]);
  });
});

/** Bounded wait on a condition the test cannot get an event for. */
async function until(cond: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("A2A server: idle sessions", () => {
  it("closes an idle Claude session after sessions.idleTimeoutMs and resumes it on the next task", async () => {
    const h = await a2a({
      config: { sessions: { idleTimeoutMs: 300 } },
      rules: [says("The code is 7421", "Noted: 7421."), says("What was the code?", "It was 7421.")],
    });
    const first = await h.send("The code is 7421");
    const harness = h;
    await until(() => harness.server.pool.liveCount === 0, "the idle session to close");
    const second = await h.send("What was the code?", { contextId: first.contextId });
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(h.spawns()).toBe(2);
    expect(JSON.stringify(h.bench.model.messageRequests.at(-1)?.body.messages)).toContain(
      "Noted: 7421.",
    );
  });
});
