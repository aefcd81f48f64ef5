/**
 * Usage is recorded for every run that reached the model, also when the task ends before its
 * run does: a task stopped by loop protection and a canceled task carry, once their run has
 * ended, the non-zero usage of the scripted model's replies (the run's result comes after the
 * task's terminal status; the stored task is amended with it); so does a failed run.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { usageOf } from "../../src/contract/usage.js";
import {
  afterTool,
  idsOf,
  lastStatus,
  reply,
  sharedA2A,
  streamMessage,
  toolUse,
  writes,
  type A2AHarness,
} from "../support/harness/index.js";

/** The stored task's usage, once it has any (bounded: the run's result arrives after the end). */
async function storedUsage(harness: A2AHarness, id: string) {
  let usage: ReturnType<typeof usageOf>;
  await expect
    .poll(
      async () => {
        const task = await harness.client.getTask({ tenant: "", id, historyLength: 0 });
        usage = usageOf(task.metadata);
        return usage?.outputTokens ?? 0;
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);
  return usage;
}

describe("usage of a task that ended before its run", () => {
  // One server: each test its own task in a fresh context. Loop protection after one denial is
  // the first test's; the others are refused nothing.
  const server = sharedA2A({ config: { claude: { maxPermissionDenials: 1 } } });
  /** The shared server, its model asking to Write outside the workspace, then saying so. */
  const writesOutside = () => {
    const h = server();
    const outside = join(h.bench.sandbox.root, "outside.txt");
    h.reset([
      writes("Save the report", outside, "x", "write-outside"),
      afterTool(true, "Not saved.", "after"),
    ]);
    return h;
  };

  it("stopped by loop protection: the denied Write's model call is counted", async () => {
    const h = writesOutside();
    const client = h.client;
    const first = await streamMessage(client, "Save the report");
    expect(lastStatus(first).kind).toBe("permission_request");
    const ids = idsOf(first);
    const second = await streamMessage(client, "no", ids);
    expect(lastStatus(second).state).toBe(TaskState.TASK_STATE_FAILED);
    const usage = await storedUsage(h, ids.taskId);
    expect(usage).toMatchObject({ runs: 1 });
    expect(usage?.costUsd).toBeGreaterThan(0);
    expect(usage?.inputTokens).toBeGreaterThan(0);
  });

  it("canceled while it waits for a permission: the model call that asked is counted", async () => {
    const h = writesOutside();
    const client = h.client;
    const first = await streamMessage(client, "Save the report");
    // Its run is under way: the runtime waits for the permission's answer.
    expect(lastStatus(first).kind).toBe("permission_request");
    const { taskId } = idsOf(first);
    const canceled = await client.cancelTask({ tenant: "", id: taskId, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const usage = await storedUsage(h, taskId);
    expect(usage).toMatchObject({ runs: 1 });
    expect(usage?.costUsd).toBeGreaterThan(0);
    const stored = await client.getTask({ tenant: "", id: taskId, historyLength: 0 });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });
  it("failed after a model call: that call is counted", async () => {
    const h = server();
    h.reset([
      {
        name: "read",
        match: { lastUserText: "Read the notes", toolResult: false },
        reply: reply(toolUse("Read", { file_path: join(h.bench.sandbox.cwd, "missing.txt") })),
      },
      // The next call is rejected (HTTP 400): the run fails.
      { name: "reject", match: { toolResult: true }, reply: { kind: "bad_request" } },
    ]);
    const events = await h.stream("Read the notes");
    expect(lastStatus(events).state).toBe(TaskState.TASK_STATE_FAILED);
    const usage = await storedUsage(h, idsOf(events).taskId);
    expect(usage?.costUsd).toBeGreaterThan(0);
  });
});
