/**
 * Restart recovery with a real server process: SIGKILL while a task runs, start again on the same
 * workspace. The task is FAILED with the restart message, and the context's next message
 * continues the conversation.
 */
import { describe, expect, it } from "vitest";
import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import { KIND } from "../../src/contract/kinds.js";
import { TEXT } from "../../src/contract/texts.js";
import {
  a2aClient,
  killSandboxProcesses,
  messageText,
  resultOf,
  says,
  sendForTask,
  serverProcess,
  streamsSlowly,
  userMessage,
  watchMessage,
} from "../support/harness/index.js";

describe("durability: restart recovery", () => {
  it("SIGKILL during a running task: after a restart the task is FAILED with the restart message, and the next message continues the conversation", async () => {
    const p = await serverProcess({
      rules: [streamsSlowly("Tell me about kiwis", 100), says("Go on", "Continuing about kiwis.")],
      deferStart: true,
    });
    const { bench } = p;
    const first = await p.spawn();
    const client = await a2aClient(first.url);

    const stream = watchMessage(client, "Tell me about kiwis");
    const head = await stream.first(() => true);
    await stream.first((e: StreamResponse) => e.payload?.$case === "artifactUpdate");
    const task = head.payload?.$case === "task" ? head.payload.value : undefined;
    if (!task) throw new Error("expected a task first");

    first.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    await stream.done.catch(() => undefined);
    // What the dead server left behind is not this item's subject: stop it before restarting.
    await killSandboxProcesses(bench.sandbox.configDir);

    const second = await p.spawn();
    const client2 = await a2aClient(second.url);
    const failed = await client2.getTask({ tenant: "", id: task.id, historyLength: undefined });
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(failed.status?.message?.metadata).toEqual({ kind: KIND.serverRestarted });
    expect(messageText(failed.status?.message)).toBe(TEXT.restartedWhileRunning);

    const next = await sendForTask(client2, userMessage("Go on", { contextId: task.contextId }));
    expect(next.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultOf(next)).toBe("Continuing about kiwis.");
    // The model sees the earlier exchange: the session was resumed.
    const request = bench.model.messageRequests.at(-1);
    expect(JSON.stringify(request?.body.messages)).toContain("Tell me about kiwis");
    expect(bench.model.unmatched).toEqual([]);
  }, 180_000);
});
