/**
 * The task lifecycle against the REAL Claude Code runtime: what a run asks reaches the task that
 * owns the run (never the task beside it), several prompts of one task are asked in turn, and a
 * cancel during the inbox write leaves the task canceled with Claude never told.
 */
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type StreamResponse, type Task } from "@a2a-js/sdk";
import { TEXT } from "../../src/contract/texts.js";
import { rawPart } from "../../src/contract/messages.js";
import {
  a2a,
  afterTool,
  dataPart,
  describeStream,
  idsOf,
  lastStatus,
  listRequest,
  messageText,
  reply,
  resultText,
  says,
  text,
  textPart,
  toolUse,
} from "../support/harness/index.js";
import { Gate, GatedInbox } from "../support/gated-inbox.js";
import { isWakeRequest, startJobRules } from "../support/a2a/background.js";
import { taskInbox } from "../../src/workspace/inbox.js";
import { ANONYMOUS_OWNER } from "../../src/identity/caller.js";

describe("A2A task lifecycle (real runtime)", () => {
  it("a wake's permission prompt while a new task starts never reaches the new task", async () => {
    const wakeReply = new Gate();
    let inbox: GatedInbox | undefined;
    const h = await a2a({
      inbox: (real) => (inbox = new GatedInbox(real)),
      // The first task completes at its turn's result: the wake is a task of its own.
      config: { claude: { backgroundTasks: "detach" } },
      rules: [
        ...startJobRules("sleep 1 && echo job-done"),
        {
          // The wake wants to run a command acceptEdits does not allow: a permission prompt.
          name: "wake",
          match: { lastUserText: /<task-notification>/, toolResult: false },
          reply: async () => {
            await wakeReply.opened;
            return reply(toolUse("Bash", { command: "python3 -c 'print(42)'" }));
          },
        },
        says("Hello with an attachment", "HELLO", "hello"),
      ],
    });
    const first = await h.send("Start the job");
    expect(first.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    // The job ends, the runtime wakes by itself and asks the model (held).
    await h.bench.model.waitForRequest(isWakeRequest);

    // A new task in the context: it heads the queue and is `starting` (its attachment is held).
    const second = h.watch(
      [
        textPart("Hello with an attachment"),
        rawPart(Buffer.from("note"), "text/plain", "note.txt"),
      ],
      { contextId: first.contextId },
    );
    await inbox?.writeStarted;
    // Now the wake goes on: its tool call needs permission; the wake's own task asks for it.
    wakeReply.open();
    let wake: Task | undefined;
    await expect
      .poll(
        async () => {
          const listed = await h?.client.listTasks(listRequest(first.contextId));
          wake = listed?.tasks.find(
            (t) => t.id !== first.id && t.metadata?.origin === "autonomous",
          );
          return wake?.status?.state;
        },
        { timeout: 30_000 },
      )
      .toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(wake?.status?.message?.metadata?.kind).toBe("permission_request");
    inbox?.gate.open();

    // The new task interrupts the wake (its prompt is withdrawn) and gets its own answer.
    const events = await second.done;
    expect(describeStream(events).at(-1)).toBe("status:completed");
    expect(describeStream(events)).not.toContain("status:input-required:permission_request");
    expect(resultText(events)).toBe("HELLO");
    await expect
      .poll(async () => (await h?.client.getTask(getRequest(wake?.id ?? "")))?.status?.state, {
        timeout: 30_000,
      })
      .toBe(TaskState.TASK_STATE_COMPLETED);
    const ended = await h.client.getTask(getRequest(wake?.id ?? ""));
    expect(messageText(ended.status?.message)).toBe(TEXT.wakeInterrupted);
    expect(h.spawns()).toBe(1);
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("asks two concurrent prompts of one task in turn; both answers take effect", async () => {
    const h = await a2a();
    const outA = join(h.bench.sandbox.root, "outside-a.txt");
    const outB = join(h.bench.sandbox.root, "outside-b.txt");
    const agent = (prompt: string) =>
      toolUse("Agent", {
        description: prompt,
        prompt,
        subagent_type: "general-purpose",
        run_in_background: false,
      });
    h.bench.model.setRules([
      {
        name: "sub-a",
        match: { subagent: true, lastUserText: "Write file A", toolResult: false },
        reply: reply(toolUse("Write", { file_path: outA, content: "A\n" })),
      },
      {
        name: "sub-b",
        match: { subagent: true, lastUserText: "Write file B", toolResult: false },
        reply: reply(toolUse("Write", { file_path: outB, content: "B\n" })),
      },
      { name: "sub-done", match: { subagent: true, toolResult: true }, reply: reply(text("ok")) },
      {
        name: "fan-out",
        match: { lastUserText: "Two helpers", toolResult: false },
        reply: reply([agent("Write file A"), agent("Write file B")]),
      },
      afterTool(true, "Both helpers reported.", "done"),
    ]);

    const first = await h.stream("Two helpers");
    const prompt1 = lastStatus(first);
    expect(prompt1).toMatchObject({ state: TaskState.TASK_STATE_INPUT_REQUIRED });
    const path1 = (prompt1.data?.input as { file_path?: string } | undefined)?.file_path;
    expect([outA, outB]).toContain(path1);
    const path2 = path1 === outA ? outB : outA;
    const ids = idsOf(first);

    // Both subagents run at once: answer only when the runtime has asked the second too, so the
    // answer finds it pending. Allowing the first then shows the second at once in the same
    // answer's stream, with no WORKING (resumed) in between: the task stays parked.
    await expect.poll(() => h?.permissionRequests.length, { timeout: 30_000 }).toBe(2);
    const second = await h.stream("yes", ids);
    expect(describeStream(second)).toEqual([
      "task:input-required",
      "status:input-required:permission_request",
    ]);
    const prompt2 = lastStatus(second);
    expect((prompt2.data?.input as { file_path?: string } | undefined)?.file_path).toBe(path2);

    // Deny the second, structured.
    const deny = { kind: "permission_response", decision: "deny", reason: "not that one" };
    const third = await h.stream([dataPart(deny)], ids);
    expect(describeStream(third).at(-1)).toBe("status:completed");
    expect(resultText(third)).toBe("Both helpers reported.");
    expect(await readFile(path1 ?? "", "utf8")).toBe(path1 === outA ? "A\n" : "B\n");
    await expect(access(path2)).rejects.toThrow();
    const subResults = h.bench.model.requests
      .filter((r) => r.rule === "sub-done")
      .map((r) => r.request.toolResults[0]?.content ?? "");
    expect(subResults.some((c) => c.includes("not that one"))).toBe(true);
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("a cancel during a slow inbox write leaves the task canceled; the model never gets the prompt", async () => {
    let inbox: GatedInbox | undefined;
    const h = await a2a({ inbox: (real) => (inbox = new GatedInbox(real)) });
    // Large enough to take a while to write, small enough for one SSE event (the client caps those at 4 MB).
    const big = Buffer.alloc(2 * 1024 * 1024, "a");
    const stream = h.watch([
      textPart("Summarise the big attachment"),
      rawPart(big, "text/plain", "big.txt"),
    ]);
    await inbox?.writeStarted;
    const { taskId } = await waitForTask(stream.items);
    const canceled = await h.client.cancelTask({ tenant: "", id: taskId, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    inbox?.gate.open();

    const events = await stream.done;
    expect(describeStream(events)).toEqual(["task:submitted", "status:canceled"]);
    await expect.poll(() => inbox?.removed).toEqual([taskId]);
    const folder = join(h.bench.sandbox.cwd, taskInbox(ANONYMOUS_OWNER, taskId));
    await expect(access(folder)).rejects.toThrow();
    const stored = await h.client.getTask({ tenant: "", id: taskId, historyLength: undefined });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    // No Claude Code process was started for it, and the model saw nothing.
    expect(h.spawns()).toBe(0);
    expect(h.bench.model.messageRequests).toEqual([]);
  });
});

async function waitForTask(events: StreamResponse[]): Promise<{ taskId: string }> {
  await expect.poll(() => events.length).toBeGreaterThan(0);
  const first = events[0]?.payload;
  if (first?.$case !== "task") throw new Error("the stream did not start with a task");
  return { taskId: first.value.id };
}

const getRequest = (id: string) => ({ tenant: "", id, historyLength: undefined });
