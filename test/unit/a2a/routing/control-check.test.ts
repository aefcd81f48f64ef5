import { beforeEach, describe, expect, it } from "vitest";
import { Role, TaskState, type Message, type Task } from "@a2a-js/sdk";
import { InMemoryTaskStore, ServerCallContext } from "@a2a-js/sdk/server";
import { controlChecker } from "../../../../src/a2a/routing/control-admission.js";
import { CONTROL_EXTENSION_URI, CONTROL_RECORD_KEY } from "../../../../src/contract/control.js";
import { CONTROL_TEXT } from "../../../../src/contract/control-texts.js";
import {
  conversationKey,
  ownerOf,
  type ConversationKey,
} from "../../../../src/identity/conversation.js";

/** A transcript of one session: p1 a1 p2 a2 (each task's prompt, then Claude's answer). */
const TRANSCRIPT = [
  { uuid: "p1", parentUuid: null, type: "user", message: { content: "one" } },
  { uuid: "a1", parentUuid: "p1", type: "assistant", message: { content: [] } },
  { uuid: "p2", parentUuid: "a1", type: "user", message: { content: "two" } },
  { uuid: "a2", parentUuid: "p2", type: "assistant", message: { content: [] } },
]
  .map((e) => JSON.stringify(e))
  .join("\n");

const alice = new ServerCallContext({
  user: { isAuthenticated: true, userName: "alice" },
  requestedExtensions: [CONTROL_EXTENSION_URI],
});
const bob = new ServerCallContext({
  user: { isAuthenticated: true, userName: "bob" },
  requestedExtensions: [CONTROL_EXTENSION_URI],
});

const stored = (id: string, contextId: string, promptUuid: string, state: TaskState): Task => ({
  id,
  contextId,
  status: { state, message: undefined, timestamp: "2025-01-01T00:00:00.000Z" },
  artifacts: [],
  history: [],
  metadata: { [CONTROL_RECORD_KEY]: { sessionId: "s1", promptUuid } },
});

const message = (metadata: Record<string, unknown>, contextId = "c1", taskId = ""): Message => ({
  messageId: "m-new",
  role: Role.ROLE_USER,
  parts: [],
  contextId,
  taskId,
  metadata,
  extensions: [],
  referenceTaskIds: [],
});

let store: InMemoryTaskStore;
let depths: Map<ConversationKey, number>;
let transcripts: Map<string, string>;
let read: { sessionId: string; conversation: ConversationKey }[];

const check = (m: Message, context = alice) =>
  controlChecker(
    {
      taskStore: store,
      control: { rewind: true, fork: true },
      controlEnv: {
        transcript: (sessionId, conversation) => {
          read.push({ sessionId, conversation });
          return transcripts.get(conversation) ?? "";
        },
      },
    },
    (key) => depths.get(key) ?? 0,
  )(m, context);

const aliceIn = (contextId: string) => conversationKey({ owner: ownerOf(alice), contextId });
const refused = (reason: string) => ({ kind: "refused", reason });

beforeEach(async () => {
  store = new InMemoryTaskStore();
  depths = new Map();
  transcripts = new Map([[aliceIn("c1"), TRANSCRIPT]]);
  read = [];
  await store.save(stored("t1", "c1", "p1", TaskState.TASK_STATE_COMPLETED), alice);
  await store.save(stored("t2", "c1", "p2", TaskState.TASK_STATE_COMPLETED), alice);
  await store.save(stored("t3", "c1", "p9", TaskState.TASK_STATE_INPUT_REQUIRED), alice);
});

describe("controlChecker: a new message's rewind or fork, before any task exists", () => {
  it("passes a message that asks for neither, reading nothing", async () => {
    expect(await check(message({}))).toEqual({ kind: "none" });
    expect(read).toEqual([]);
  });

  it("admits a rewind to a task of the conversation still on its branch", async () => {
    expect(await check(message({ rewindTo: "t2" }))).toEqual({ kind: "admitted" });
    expect(read).toEqual([{ sessionId: "s1", conversation: aliceIn("c1") }]);
  });

  it("admits a fork into a new context (none given, or an unused one), reading the source's transcript", async () => {
    expect(await check(message({ forkOf: "t1" }, ""))).toEqual({ kind: "admitted" });
    expect(await check(message({ forkOf: "t1" }, "fresh"))).toEqual({ kind: "admitted" });
    expect(read.map((r) => r.conversation)).toEqual([aliceIn("c1"), aliceIn("c1")]);
  });

  it.each<[string, Message, ServerCallContext | undefined, unknown]>([
    ["no such task", message({ rewindTo: "nope" }), undefined, CONTROL_TEXT.unknownTask("nope")],
    [
      "another caller's task (as unknown)",
      message({ forkOf: "t1" }, "b1"),
      bob,
      CONTROL_TEXT.unknownTask("t1"),
    ],
    ["a task not ended", message({ rewindTo: "t3" }), undefined, CONTROL_TEXT.notEnded("t3")],
    [
      "a rewind from another context",
      message({ rewindTo: "t1" }, "c2"),
      undefined,
      CONTROL_TEXT.otherContext("t1"),
    ],
    [
      "a fork into its own context",
      message({ forkOf: "t1" }, "c1"),
      undefined,
      CONTROL_TEXT.sameContext("t1"),
    ],
    [
      "a rewind with a taskId",
      message({ rewindTo: "t1" }, "c1", "t2"),
      undefined,
      CONTROL_TEXT.withTaskId("rewindTo"),
    ],
  ])("refuses %s", async (_name, m, context, reason) => {
    expect(await check(m, context ?? alice)).toEqual(refused(reason as string));
  });

  it("refuses a rewind while another task of the conversation runs or waits", async () => {
    depths.set(aliceIn("c1"), 1);
    expect(await check(message({ rewindTo: "t1" }))).toEqual(refused(CONTROL_TEXT.busy("t1")));
    // Another conversation's queue is not this one's.
    depths.set(aliceIn("c1"), 0);
    depths.set(aliceIn("c2"), 3);
    expect(await check(message({ rewindTo: "t1" }))).toEqual({ kind: "admitted" });
  });

  it("refuses a fork into a context that has tasks", async () => {
    await store.save(stored("u1", "used", "p1", TaskState.TASK_STATE_COMPLETED), alice);
    expect(await check(message({ forkOf: "t1" }, "used"))).toEqual(
      refused(CONTROL_TEXT.contextInUse),
    );
  });

  it("refuses a task an earlier rewind went back before, and one whose session has no transcript", async () => {
    // A rewind to before t2: its prompt p2 is off the branch written last.
    const branch = { uuid: "p5", parentUuid: "a1", type: "user", message: { content: "five" } };
    transcripts.set(aliceIn("c1"), `${TRANSCRIPT}\n${JSON.stringify(branch)}`);
    expect(await check(message({ rewindTo: "t2" }))).toEqual(
      refused(CONTROL_TEXT.notInConversation("t2")),
    );
    expect(await check(message({ forkOf: "t2" }, "f1"))).toEqual(
      refused(CONTROL_TEXT.notInConversation("t2")),
    );
    transcripts.clear();
    expect(await check(message({ rewindTo: "t1" }))).toEqual(
      refused(CONTROL_TEXT.noTranscript("t1")),
    );
  });

  it("refuses without the extension, and with the control off", async () => {
    const bare = new ServerCallContext({ user: { isAuthenticated: true, userName: "alice" } });
    expect(await check(message({ rewindTo: "t1" }), bare)).toEqual(
      refused(CONTROL_TEXT.needsExtension("rewindTo")),
    );
    const off = await controlChecker(
      { taskStore: store, control: { rewind: false, fork: true } },
      () => 0,
    )(message({ rewindTo: "t1" }), alice);
    expect(off).toEqual(refused(CONTROL_TEXT.off("rewind")));
  });
});
