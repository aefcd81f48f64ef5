/**
 * Answers across a restart (docs/tasks.md "Answers across a restart", issue 49 item 5): a task
 * waiting for an answer when its server stops (SIGTERM) stays input-required, its status saying
 * the server restarted; the answer sent to the next server resumes the conversation. A question's
 * answer reaches Claude as the answer to what it asked, and the task completes; a yes to a
 * permission makes Claude try the call again, which asks again, and that answer completes it.
 * Real servers (a process each), the real runtime, the scripted model, the official client.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type Task } from "@a2a-js/sdk";
import { KIND } from "../../src/contract/kinds.js";
import { RESTART_PARKED_TEXT } from "../../src/contract/restart-parked.js";
import { eventNumberOf } from "../../src/a2a/channel/event-numbers.js";
import {
  a2aClient,
  afterTool,
  asking,
  idsOf,
  killSandboxProcesses,
  lastStatus,
  messageText,
  reply,
  resultOf,
  says,
  sendForTask,
  serverProcess,
  streamMessage,
  toolUse,
  userMessage,
  type ProcessHarness,
} from "../support/harness/index.js";

/** Stops the server with SIGTERM, starts the next one, and reads the task there. */
async function restart(p: ProcessHarness, taskId: string): Promise<Task> {
  p.server.kill("SIGTERM");
  expect(await p.server.exited, p.server.output()).toEqual({ code: 0, signal: null });
  const next = await p.spawn();
  return (await a2aClient(next.url)).getTask({ tenant: "", id: taskId, historyLength: undefined });
}

describe("answers across a restart", () => {
  it("a question pending at SIGTERM: still input-required after the restart, and its answer completes the task", async () => {
    const p = await serverProcess({
      rules: [
        asking("Pick a colour for the logo"),
        says(/answered your question:\n- "Which colour do you prefer\?": blue/, "Blue it is."),
      ],
      deferStart: true,
    });
    await p.spawn();
    const events = await streamMessage(await p.connect(), "Pick a colour for the logo");
    expect(lastStatus(events).kind).toBe(KIND.askUserQuestion);
    const { taskId, contextId } = idsOf(events);

    const kept = await restart(p, taskId);
    expect(kept.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(kept.status?.message?.metadata).toEqual({
      kind: KIND.askUserQuestion,
      restarted: true,
    });
    expect(messageText(kept.status?.message)).toBe(RESTART_PARKED_TEXT.question);

    const client = await p.connect();
    const done = await sendForTask(client, userMessage("blue", { taskId, contextId }));
    expect(done.status?.state, messageText(done.status?.message)).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
    expect(done.id).toBe(taskId);
    expect(resultOf(done)).toBe("Blue it is.");
    // The conversation was resumed: the model saw the question it had asked.
    const last = p.bench.model.messageRequests.at(-1);
    expect(JSON.stringify(last?.body.messages)).toContain("Pick a colour for the logo");
    expect(p.bench.model.unmatched).toEqual([]);

    // The task asks nothing now: another answer is refused, and changes nothing.
    await expect(sendForTask(client, userMessage("red", { taskId, contextId }))).rejects.toThrow();
    const after = await client.getTask({ tenant: "", id: taskId, historyLength: undefined });
    expect(after.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultOf(after)).toBe("Blue it is.");
  }, 180_000);

  it("a permission pending at SIGTERM: a yes after the restart makes Claude try again, which asks again; that yes completes it", async () => {
    const p = await serverProcess({ deferStart: true });
    const outside = join(p.bench.sandbox.root, "report.txt");
    p.bench.model.setRules([
      {
        match: { lastUserText: "Save the report", toolResult: false },
        reply: reply(toolUse("Write", { file_path: outside, content: "first" })),
      },
      {
        match: { lastUserText: /The user has now allowed it: make the same call again/ },
        reply: reply(toolUse("Write", { file_path: outside, content: "again" })),
      },
      afterTool(true, "Saved."),
    ]);
    await p.spawn();
    const events = await streamMessage(await p.connect(), "Save the report");
    expect(lastStatus(events).kind).toBe(KIND.permissionRequest);
    const { taskId, contextId } = idsOf(events);

    const kept = await restart(p, taskId);
    expect(kept.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(kept.status?.message?.metadata).toMatchObject({ restarted: true });
    expect(messageText(kept.status?.message)).toBe(RESTART_PARKED_TEXT.permission("Write"));
    // The stopped call did not run.
    await expect(readFile(outside, "utf8")).rejects.toThrow(/ENOENT/);

    const client = await p.connect();
    const asked = await streamMessage(client, "yes", { taskId, contextId });
    const again = lastStatus(asked);
    expect(again.kind).toBe(KIND.permissionRequest);
    expect(again.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(idsOf(asked).taskId).toBe(taskId);
    // The task's event numbers go on from before the restart (replay never sees one twice).
    const before = Math.max(...events.flatMap((e) => eventNumberOf(e) ?? []));
    const after = asked.flatMap((e) => eventNumberOf(e) ?? []);
    expect(after.length).toBeGreaterThan(1);
    expect(Math.min(...after)).toBeGreaterThan(before);

    const done = await sendForTask(client, userMessage("yes", { taskId, contextId }));
    expect(done.status?.state, messageText(done.status?.message)).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
    expect(resultOf(done)).toBe("Saved.");
    expect(await readFile(outside, "utf8")).toBe("again");
    expect(p.bench.model.unmatched).toEqual([]);
  }, 180_000);

  it("a question pending at SIGKILL: still input-required after the restart, and a cancel ends it", async () => {
    const p = await serverProcess({
      rules: [asking("Pick a colour for the logo")],
      deferStart: true,
    });
    const first = await p.spawn();
    const events = await streamMessage(await p.connect(), "Pick a colour for the logo");
    expect(lastStatus(events).kind).toBe(KIND.askUserQuestion);
    const { taskId, contextId } = idsOf(events);

    first.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    await killSandboxProcesses(p.bench.sandbox.configDir);
    await p.spawn();
    const client = await p.connect();
    const kept = await client.getTask({ tenant: "", id: taskId, historyLength: undefined });
    expect(kept.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(messageText(kept.status?.message)).toBe(RESTART_PARKED_TEXT.question);

    const canceled = await client.cancelTask({ tenant: "", id: taskId, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    // Ended: an answer now is refused and changes nothing.
    await expect(sendForTask(client, userMessage("blue", { taskId, contextId }))).rejects.toThrow();
    const after = await client.getTask({ tenant: "", id: taskId, historyLength: undefined });
    expect(after.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  }, 180_000);
});
