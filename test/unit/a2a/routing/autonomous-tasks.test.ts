import { TaskState } from "@a2a-js/sdk";
import {
  DefaultExecutionEventBusManager,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  ServerCallContext,
  type PushNotificationSender,
} from "@a2a-js/sdk/server";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { AUTONOMOUS_ORIGIN } from "../../../../src/contract/kinds.js";
import { TEXT } from "../../../../src/contract/texts.js";
import {
  autonomousRecord,
  AutonomousTasks,
  wakeCaller,
} from "../../../../src/a2a/routing/autonomous-tasks.js";
import {
  callContextOf,
  conversationKey,
  type ConversationKey,
} from "../../../../src/identity/conversation.js";

const ref = { taskId: "t-new", contextId: "ctx" };

describe("autonomousRecord", () => {
  const rows: {
    from: string | undefined;
    text: string;
    referenceTaskIds: string[];
    metadata: Record<string, unknown>;
  }[] = [
    {
      from: undefined,
      text: TEXT.autonomousStart(undefined),
      referenceTaskIds: [],
      metadata: { origin: AUTONOMOUS_ORIGIN },
    },
    {
      from: "t-old",
      text: TEXT.autonomousStart("t-old"),
      referenceTaskIds: ["t-old"],
      metadata: { origin: AUTONOMOUS_ORIGIN, referenceTaskId: "t-old" },
    },
  ];
  for (const row of rows) {
    it(`caused by ${row.from ?? "no task"}`, () => {
      const task = autonomousRecord(ref, row.from);
      expect(task.id).toBe(ref.taskId);
      expect(task.contextId).toBe(ref.contextId);
      expect(task.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
      expect(task.metadata).toEqual(row.metadata);
      expect(task.history).toHaveLength(1);
      expect(task.history[0]?.referenceTaskIds).toEqual(row.referenceTaskIds);
      expect(task.history[0]?.parts[0]?.content).toEqual({ $case: "text", value: row.text });
    });
  }
});

describe("wakeCaller", () => {
  const source = new ServerCallContext();
  const latest = new ServerCallContext();
  const rows: {
    name: string;
    source: ServerCallContext | undefined;
    latest: ServerCallContext | undefined;
    expected: ServerCallContext | "owner";
  }[] = [
    { name: "the caller of the task whose work caused it", source, latest, expected: source },
    { name: "else the conversation's latest caller", source: undefined, latest, expected: latest },
    {
      name: "else the conversation's owner",
      source: undefined,
      latest: undefined,
      expected: "owner",
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const got = wakeCaller(row.source, row.latest, "token:alice");
      if (row.expected === "owner") {
        expect(got.user).toEqual(callContextOf("token:alice").user);
      } else {
        expect(got).toBe(row.expected);
      }
    });
  }
});

function setup(withPush: boolean) {
  const taskStore = new InMemoryTaskStore();
  const busManager = new DefaultExecutionEventBusManager();
  const pushStore = new InMemoryPushNotificationStore();
  const sender: PushNotificationSender = { send: () => Promise.resolve() };
  const autonomous = new AutonomousTasks({
    taskStore,
    busManager,
    logger: pino({ level: "silent" }),
    ...(withPush && { push: { store: pushStore, sender } }),
  });
  return { taskStore, pushStore, autonomous };
}

const conversation = conversationKey({ owner: "", contextId: "ctx" });

/** Opens the wake task of `conversation` caused by `caller`'s task `t-old`, which has a push config. */
async function openCausedBy(
  autonomous: AutonomousTasks,
  pushStore: ReturnType<typeof setup>["pushStore"],
  caller: ServerCallContext,
) {
  await pushStore.save("t-old", caller, {
    tenant: "",
    id: "cfg",
    taskId: "t-old",
    url: "http://127.0.0.1:9/hook",
    token: "tok",
    authentication: undefined,
  });
  const source = { ref: { taskId: "t-old", contextId: "ctx" }, channel: { callContext: caller } };
  return autonomous.open(conversation, "r-1", source);
}

describe("AutonomousTasks.open", () => {
  it("a key that names no conversation opens nothing", () => {
    const { autonomous } = setup(false);
    // Opaque on purpose: the type says it cannot happen, the guard says what if it did.
    const bad = "not a key" as ConversationKey;
    expect(autonomous.open(bad, "r-1", undefined)).toBeUndefined();
  });

  it("stores the new task's record in the conversation's context, owned by its caller", async () => {
    const { autonomous, taskStore } = setup(false);
    const caller = new ServerCallContext();
    autonomous.noteCaller(conversation, caller);
    const opened = autonomous.open(conversation, "r-1", undefined);
    expect(opened?.ref.contextId).toBe("ctx");
    expect(opened?.referenceTaskId).toBeUndefined();
    expect(opened?.channel.callContext).toBe(caller);
    await opened?.channel.flushed();
    const stored = await taskStore.load(opened?.ref.taskId ?? "", caller);
    expect(stored?.metadata).toEqual({ origin: AUTONOMOUS_ORIGIN });
  });

  it("the task whose work caused the wake: referenced, its caller's, its push configs inherited", async () => {
    const { autonomous, pushStore } = setup(true);
    const caller = new ServerCallContext();
    autonomous.noteCaller(conversation, new ServerCallContext());
    const opened = await openCausedBy(autonomous, pushStore, caller);
    expect(opened?.referenceTaskId).toBe("t-old");
    expect(opened?.channel.callContext).toBe(caller);
    await opened?.channel.flushed();
    const inherited = await pushStore.load(opened?.ref.taskId ?? "", caller);
    expect(inherited.map((c) => [c.taskId, c.url])).toEqual([
      [opened?.ref.taskId, "http://127.0.0.1:9/hook"],
    ]);
  });

  it("without push on, nothing is inherited", async () => {
    const { autonomous, pushStore } = setup(false);
    const caller = new ServerCallContext();
    const opened = await openCausedBy(autonomous, pushStore, caller);
    await opened?.channel.flushed();
    expect(await pushStore.load(opened?.ref.taskId ?? "", caller)).toEqual([]);
  });
});

describe("AutonomousTasks: the callers it keeps", () => {
  it("one per conversation, the latest, until the conversation is forgotten", () => {
    const { autonomous } = setup(false);
    const other = conversationKey({ owner: "", contextId: "other" });
    autonomous.noteCaller(conversation, new ServerCallContext());
    autonomous.noteCaller(conversation, new ServerCallContext());
    autonomous.noteCaller(other, new ServerCallContext());
    expect(autonomous.retainedCallers).toBe(2);
    autonomous.forget(conversation);
    expect(autonomous.retainedCallers).toBe(1);
  });
});
