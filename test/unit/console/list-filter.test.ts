import { describe, expect, it } from "vitest";
import { Role, TaskState, type Task } from "@a2a-js/sdk";
import { conversations, NO_FILTER, passes } from "../../../console/list-filter.js";
import {
  ANY_TASK,
  appendPage,
  listQuery,
  listRequest,
  mergeFirstPage,
  sameQuery,
} from "../../../console/task-pages.js";
import { textPart } from "../../../src/contract/messages.js";

const task = (
  id: string,
  contextId: string,
  ask: string,
  state: TaskState,
  metadata?: Record<string, unknown>,
): Task => ({
  id,
  contextId,
  status: { state, message: undefined, timestamp: undefined },
  artifacts: [],
  history: [
    {
      messageId: `m-${id}`,
      contextId,
      taskId: id,
      role: Role.ROLE_USER,
      parts: [textPart(ask)],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
  ],
  metadata,
});

// Newest first, as ListTasks lists them.
const tasks = [
  task("t3", "c1", "And the changelog", TaskState.TASK_STATE_WORKING),
  task("t2", "c2", "Paint the fence blue", TaskState.TASK_STATE_INPUT_REQUIRED, {
    owner: "token:bob",
  }),
  task("t1", "c1", "Fix the login bug", TaskState.TASK_STATE_COMPLETED, { origin: "autonomous" }),
];

describe("conversations: titled by their first prompt, filtered", () => {
  it("titles each conversation by its oldest task's ask", () => {
    expect(conversations(tasks, NO_FILTER).map((c) => [c.title, c.tasks.map((t) => t.id)])).toEqual(
      [
        ["Fix the login bug", ["t3", "t1"]],
        ["Paint the fence blue", ["t2"]],
      ],
    );
  });

  it.each([
    [{ query: "fence" }, ["t2"]],
    [{ query: "LOGIN" }, ["t3", "t1"]], // the title matches: the whole conversation
    [{ query: "changelog" }, ["t3"]],
    [{ query: "login nothing" }, []],
    [{ state: "completed" }, ["t1"]],
    [{ state: "open" }, ["t3", "t2"]],
    [{ state: "input-required" }, ["t2"]],
    [{ origin: "autonomous" }, ["t1"]],
    [{ origin: "foreground" }, ["t3", "t2"]],
    [{ owner: "token:bob" }, ["t2"]],
    [{ contextId: "c2" }, ["t2"]],
  ])("%j → %j", (f, ids) => {
    const filter = { ...NO_FILTER, ...f };
    expect(conversations(tasks, filter).flatMap((c) => c.tasks.map((t) => t.id))).toEqual(ids);
    expect(tasks.filter((t) => passes(t, "", filter)).length).toBeLessThanOrEqual(tasks.length);
  });
});

describe("pages of ListTasks", () => {
  it("a fresh first page goes on top of the older pages read", () => {
    const [a, b, c] = tasks as [Task, Task, Task];
    const moved = { ...c, status: { ...c.status, state: TaskState.TASK_STATE_FAILED } } as Task;
    expect(mergeFirstPage([moved, a], [a, b, c]).map((t) => t.id)).toEqual(["t1", "t3", "t2"]);
    expect(appendPage([a], [a, b]).map((t) => t.id)).toEqual(["t3", "t2"]);
  });
});

describe("what the list asks the server to filter (ListTasks status and contextId)", () => {
  it.each<[string, string, string, TaskState]>([
    ["any state", "", "", TaskState.TASK_STATE_UNSPECIFIED],
    // "Not over" is several states: the page filters it over the pages read.
    ["not over", "open", "", TaskState.TASK_STATE_UNSPECIFIED],
    ["working", "working", "", TaskState.TASK_STATE_WORKING],
    ["waiting for you", "input-required", "", TaskState.TASK_STATE_INPUT_REQUIRED],
    ["completed", "completed", "", TaskState.TASK_STATE_COMPLETED],
    ["failed, in a conversation", "failed", "c1", TaskState.TASK_STATE_FAILED],
    ["canceled", "canceled", "", TaskState.TASK_STATE_CANCELED],
  ])("%s", (_, state, contextId, status) => {
    const query = listQuery({ ...NO_FILTER, state, contextId, query: "fix", origin: "autonomous" });
    expect(query).toEqual({ status, contextId });
    expect(listRequest("p2", query)).toMatchObject({ status, contextId, pageToken: "p2" });
  });

  it("the search, the origin and the owner are the page's: they ask the server nothing new", () => {
    expect(
      sameQuery(
        listQuery({ ...NO_FILTER, query: "login", origin: "autonomous", owner: "ann" }),
        ANY_TASK,
      ),
    ).toBe(true);
    expect(sameQuery(listQuery({ ...NO_FILTER, state: "failed" }), ANY_TASK)).toBe(false);
    expect(listRequest("")).toMatchObject({
      status: TaskState.TASK_STATE_UNSPECIFIED,
      contextId: "",
    });
  });
});
