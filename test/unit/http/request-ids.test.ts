import { describe, expect, it } from "vitest";
import { requestIds } from "../../../src/http/request-ids.js";

const rpc = (method: string, params: unknown) => ({ jsonrpc: "2.0", id: 1, method, params });

describe("requestIds (the request log line)", () => {
  it("JSON-RPC: method, and the ids of the message, the task asked for, or the answer", () => {
    expect(
      requestIds(
        rpc("SendMessage", { message: { messageId: "m", contextId: "c1", taskId: "", parts: [] } }),
        "/a2a/jsonrpc",
        { jsonrpc: "2.0", id: 1, result: { task: { id: "t9", contextId: "c1", status: {} } } },
      ),
    ).toEqual({ rpc: "SendMessage", taskId: "t9", contextId: "c1" });
    expect(requestIds(rpc("GetTask", { id: "t1" }), "/a2a/jsonrpc", undefined)).toEqual({
      rpc: "GetTask",
      taskId: "t1",
    });
    expect(requestIds(rpc("ListTasks", { contextId: "c2" }), "/a2a/jsonrpc", undefined)).toEqual({
      rpc: "ListTasks",
      contextId: "c2",
    });
  });

  it("REST: the task id in the path", () => {
    expect(requestIds(undefined, "/a2a/rest/tasks/t7:cancel", undefined)).toEqual({ taskId: "t7" });
  });

  it("never more than ids: other fields, and long values, stay out", () => {
    const ids = requestIds(
      rpc("SendMessage", { message: { taskId: "x".repeat(500), parts: [{ text: "secret" }] } }),
      "/a2a/jsonrpc",
      { error: { code: -32001, message: "nope" } },
    );
    expect(ids).toEqual({ rpc: "SendMessage", taskId: "x".repeat(100) });
  });
});
