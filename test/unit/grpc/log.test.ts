import { describe, expect, it } from "vitest";
import { callIds, statusName } from "../../../src/grpc/log.js";
import { rpcName } from "../../../src/grpc/service.js";

const task = { id: "t-1", contextId: "c-1", status: { state: 3 } };
/** A stream item or answer of this case and value. */
const item = ($case: string, value: unknown) => ({ payload: { $case, value } });
const message = (taskId: string, contextId: string) => ({ message: { taskId, contextId } });
const T1 = { taskId: "t-1", contextId: "c-1" };

describe("the ids a gRPC call's log line names", () => {
  it.each([
    ["SendMessage, new task", "SendMessage", message("", ""), item("task", task), T1],
    [
      "SendMessage, a message answer",
      "SendMessage",
      message("", "c-9"),
      item("message", { messageId: "m", taskId: "", contextId: "c-9" }),
      { contextId: "c-9" },
    ],
    [
      "SendStreamingMessage, answering a task",
      "SendStreamingMessage",
      message("t-1", "c-1"),
      item("task", task),
      T1,
    ],
    [
      "a stream that starts with a status update",
      "SubscribeToTask",
      { id: "t-2" },
      item("statusUpdate", { taskId: "t-2", contextId: "c-2" }),
      { taskId: "t-2", contextId: "c-2" },
    ],
    ["GetTask answered", "GetTask", { id: "t-1" }, task, T1],
    ["GetTask refused: the request's id", "GetTask", { id: "t-3" }, undefined, { taskId: "t-3" }],
    [
      "ListTasks by context",
      "ListTasks",
      { contextId: "c-4", pageSize: 5 },
      { tasks: [task] },
      { contextId: "c-4" },
    ],
    [
      "a push config's task",
      "GetTaskPushNotificationConfig",
      { taskId: "t-5", id: "cfg-1" },
      undefined,
      { taskId: "t-5" },
    ],
    ["no request (refused before reading it)", "CancelTask", undefined, undefined, {}],
    [
      "an id cut to 100 characters",
      "GetTask",
      { id: "x".repeat(500) },
      undefined,
      { taskId: "x".repeat(100) },
    ],
    ["non-string ids ignored", "GetTask", { id: 5 }, item("task", { id: {} }), {}],
  ] as const)("%s", (_name, rpc, request, answer, expected) => {
    expect(callIds(rpc, request, answer)).toEqual({ rpc, ...expected });
  });

  it("names the method and the status", () => {
    expect(rpcName("/lf.a2a.v1.A2AService/SendMessage")).toBe("SendMessage");
    expect(statusName(0)).toBe("OK");
    expect(statusName(16)).toBe("UNAUTHENTICATED");
    expect(statusName(99)).toBe("99");
  });
});
