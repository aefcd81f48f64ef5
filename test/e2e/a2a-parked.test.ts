/**
 * What a parked task shows while it waits for its client: the prompt being asked, stored and
 * streamed, never a `working` status while a prompt is pending (issue 18, item 1); and what its
 * history keeps: the exchanged messages, not the progress statuses (item 5).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Role, TaskState, type Message, type Part, type StreamResponse } from "@a2a-js/sdk";
import {
  a2a,
  asks,
  COLOUR_QUESTION,
  describeStream,
  idsOf,
  lastStatus,
  messageText,
  reply,
  text,
  toolUse,
  watch,
  type A2AHarness,
} from "../support/harness/index.js";

async function send(harness: A2AHarness, parts: Part[] | string, ids = {}) {
  return harness.stream(parts, ids);
}

const getTask = (harness: A2AHarness, id: string, historyLength?: number) =>
  harness.client.getTask({ tenant: "", id, historyLength });

/** The file a permission prompt (a status message) asks to read. */
function askedPath(message: Message | undefined): unknown {
  const data = message?.parts.find((p) => p.content?.$case === "data")?.content;
  return data?.$case === "data"
    ? (data.value as { input?: { file_path?: unknown } }).input?.file_path
    : undefined;
}

/** The message of a stream's last status update. */
const lastMessage = (events: readonly StreamResponse[]): Message | undefined =>
  events
    .flatMap((e) => (e.payload?.$case === "statusUpdate" ? [e.payload.value.status?.message] : []))
    .at(-1);

const workingStatuses = (events: readonly StreamResponse[]) =>
  describeStream(events).filter((e) => e.startsWith("status:working"));

describe("a parked task", () => {
  it("shows one concurrent permission prompt at a time and never turns working while one is pending", async () => {
    const h = await a2a();
    const outside = join(h.bench.sandbox.root, "outside");
    await mkdir(outside);
    const notes = [join(outside, "a.txt"), join(outside, "b.txt")];
    await writeFile(notes[0] ?? "", "alpha note\n");
    await writeFile(notes[1] ?? "", "beta note\n");
    h.bench.model.setRules([
      {
        // One assistant message, two reads outside the workspace: Read is concurrency-safe, so
        // the runtime asks for both permissions at once.
        name: "read-both",
        match: { lastUserText: "Read both notes", toolResult: false },
        reply: reply(notes.map((file_path) => toolUse("Read", { file_path }))),
      },
      {
        name: "both-read",
        match: { when: (r) => r.toolResults.length === 2 },
        reply: reply(text("Both notes read.")),
      },
    ]);

    const first = await send(h, "Read both notes");
    const { taskId } = idsOf(first);
    expect(lastStatus(first)).toMatchObject({
      state: TaskState.TASK_STATE_INPUT_REQUIRED,
      kind: "permission_request",
    });
    const firstPrompt = lastMessage(first);
    const firstPath = askedPath(firstPrompt);
    expect(notes).toContain(firstPath);
    const secondPath = notes.find((n) => n !== firstPath);

    // The runtime has asked the second permission too, while the first is still shown.
    await expect.poll(() => h?.permissionRequests.length, { timeout: 20_000 }).toBe(2);

    // The stored task still asks the first question, and a subscriber starts from it.
    const sub = watch(h.client.resubscribeTask({ tenant: "", id: taskId }));
    const snapshot = await sub.first((e) => e.payload?.$case === "task");
    const stored = await getTask(h, taskId, 0);
    for (const task of [
      snapshot.payload?.$case === "task" ? snapshot.payload.value : undefined,
      stored,
    ]) {
      expect(task?.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(task?.status?.message?.messageId).toBe(firstPrompt?.messageId);
    }

    // The answer shows the second prompt at once: no working status in between.
    const second = await send(h, "yes", idsOf(first));
    expect(workingStatuses(second)).toEqual([]);
    expect(lastStatus(second)).toMatchObject({
      state: TaskState.TASK_STATE_INPUT_REQUIRED,
      kind: "permission_request",
    });
    const secondPrompt = lastMessage(second);
    expect(askedPath(secondPrompt)).toBe(secondPath);
    // The subscriber saw the same: the first prompt (its task snapshot, then the answering
    // turn's), then the second prompt, nothing working.
    const seen = describeStream(await sub.done);
    expect(seen[0]).toBe("task:input-required");
    expect(seen.filter((e) => !e.startsWith("task:"))).toEqual([
      "status:input-required:permission_request",
    ]);
    const storedSecond = await getTask(h, taskId, 0);
    expect(storedSecond.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(storedSecond.status?.message?.messageId).toBe(secondPrompt?.messageId);

    // The last answer resumes it; the progress held while it was parked comes then.
    const third = await send(h, "yes", idsOf(first));
    const shape = describeStream(third);
    expect(shape.slice(0, 2)).toEqual(["task:input-required", "status:working:resumed"]);
    expect(shape.at(-1)).toBe("status:completed");
    const toolUses = [...first, ...second, ...third].flatMap((e): unknown[] => {
      const metadata =
        e.payload?.$case === "statusUpdate" && e.payload.value.status?.message?.metadata;
      return metadata && metadata.kind === "tool_use" ? [metadata.toolUseId] : [];
    });
    expect(new Set(toolUses).size).toBe(2);

    // Both reads ran.
    const done = h.bench.model.requests.find((r) => r.rule === "both-read")?.request;
    const results = done?.toolResults.map((r) => r.content).join("\n");
    expect(results).toContain("alpha note");
    expect(results).toContain("beta note");
    expect(h.bench.model.unmatched).toEqual([]);
  });
});

describe("a task's history", () => {
  it("holds the exchanged messages, not the progress statuses", async () => {
    const h = await a2a({
      rules: asks("Paint the fence", { answer: /blue/, then: "Painting it blue." }),
    });
    const first = await send(h, "Paint the fence");
    expect(lastStatus(first).kind).toBe("ask_user_question");
    // Progress happened: the tool call was streamed.
    expect(describeStream(first)).toContain("status:working:tool_use");
    const answered = await h.send("blue", idsOf(first));
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const view = (messages: readonly Message[]) =>
      messages.map((m) => ({
        role: m.role,
        kind: m.metadata?.kind as unknown,
        text: messageText(m),
      }));
    const expected = [
      { role: Role.ROLE_USER, kind: undefined, text: "Paint the fence" },
      { role: Role.ROLE_AGENT, kind: "ask_user_question", text: COLOUR_QUESTION.question },
      { role: Role.ROLE_USER, kind: undefined, text: "blue" },
      { role: Role.ROLE_AGENT, kind: "result", text: "Painting it blue." },
    ];
    const stored = await getTask(h, idsOf(first).taskId, 10);
    expect(view(stored.history)).toEqual(expected);
    // The answer's own reply (a blocking send) reads the same.
    expect(view(answered.history)).toEqual(expected);
  });
});
