import { TaskState, type Task } from "@a2a-js/sdk";
import { InMemoryTaskStore, ServerCallContext } from "@a2a-js/sdk/server";
import { describe, expect, it } from "vitest";
import { KIND } from "../../../src/contract/kinds.js";
import { agentMessage, textPart } from "../../../src/contract/messages.js";
import { ExchangedHistoryStore } from "../../../src/store/exchanged-history-store.js";

const context = new ServerCallContext();
const ref = { taskId: "t-1", contextId: "c-1" };
const question = agentMessage(ref, [textPart("Which colour?")], { kind: KIND.askUserQuestion });
const toolCall = agentMessage(ref, [textPart("Calling tool Read")], { kind: KIND.toolUse });
const task = (): Task => ({
  id: "t-1",
  contextId: "c-1",
  status: { state: TaskState.TASK_STATE_WORKING, message: toolCall, timestamp: "" },
  artifacts: [],
  history: [toolCall, question],
  metadata: {},
});
const listParams = {
  tenant: "",
  contextId: "c-1",
  status: TaskState.TASK_STATE_UNSPECIFIED,
  pageSize: 10,
  pageToken: "",
  historyLength: undefined,
  statusTimestampAfter: undefined,
  includeArtifacts: false,
};

describe("ExchangedHistoryStore", () => {
  it("stores a task without the progress in its history; its status keeps its message", async () => {
    const inner = new InMemoryTaskStore();
    const given = task();
    await new ExchangedHistoryStore(inner).save(given, context);
    const stored = await inner.load("t-1", context);
    expect(stored?.history).toEqual([question]);
    expect(stored?.status?.message).toEqual(toolCall);
    // What it was given is left as it was.
    expect(given.history).toEqual([toolCall, question]);
  });

  it("reads a task stored before the rule without its progress, by load and by list", async () => {
    const inner = new InMemoryTaskStore();
    await inner.save(task(), context);
    const store = new ExchangedHistoryStore(inner);
    expect((await store.load("t-1", context))?.history).toEqual([question]);
    const listed = await store.list(listParams, context);
    expect(listed.tasks.map((t) => t.history)).toEqual([[question]]);
    expect(await store.load("unknown", context)).toBeUndefined();
  });
});
