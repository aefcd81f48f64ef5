/** The terminal client resumes a dropped stream from its last event number, the same message. */
import { Role, TaskState, type Message, type StreamResponse } from "@a2a-js/sdk";
import type { Client, RequestOptions } from "@a2a-js/sdk/client";
import { describe, expect, it } from "vitest";
import { makeColors } from "../../../src/client/colors.js";
import type { ClientEnv } from "../../../src/client/env.js";
import { endsTurn, isDroppedConnection } from "../../../src/client/resume.js";
import { streamTurn } from "../../../src/client/turn.js";

const status = (state: TaskState, n: number): StreamResponse => ({
  payload: {
    $case: "statusUpdate",
    value: {
      taskId: "t",
      contextId: "c",
      status: { state, message: undefined, timestamp: "2026-01-01T00:00:00Z" },
      metadata: { eventNumber: n },
    },
  },
});

const message: Message = {
  messageId: "m-1",
  contextId: "",
  taskId: "",
  role: Role.ROLE_USER,
  parts: [],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
};

describe("resume decisions", () => {
  it.each([
    [new TypeError("terminated"), true],
    [new TypeError("fetch failed"), true],
    [new Error("other side closed"), true],
    [Object.assign(new Error("Task not found"), { transport: "jsonrpc" }), false],
    [new Error("HTTP error establishing stream for SendStreamingMessage: 401 Unauthorized"), false],
    [Object.assign(new Error("aborted"), { name: "AbortError" }), false],
  ])("%s is a dropped connection: %s", (err, dropped) => {
    expect(isDroppedConnection(err)).toBe(dropped);
  });

  it("a turn ends at a terminal or input-required status, not at working", () => {
    expect(endsTurn(status(TaskState.TASK_STATE_WORKING, 1))).toBe(false);
    expect(endsTurn(status(TaskState.TASK_STATE_INPUT_REQUIRED, 2))).toBe(true);
    expect(endsTurn(status(TaskState.TASK_STATE_COMPLETED, 3))).toBe(true);
  });
});

describe("streamTurn through a dropped connection", () => {
  it("says reconnecting…, then sends the same message with Last-Event-ID and shows the rest once", async () => {
    const calls: { message: Message | undefined; options: RequestOptions | undefined }[] = [];
    const client = {
      async *sendMessageStream(params: { message: Message | undefined }, options?: RequestOptions) {
        calls.push({ message: params.message, options });
        await Promise.resolve();
        if (calls.length === 1) {
          yield status(TaskState.TASK_STATE_WORKING, 1);
          yield status(TaskState.TASK_STATE_WORKING, 2);
          throw new TypeError("terminated");
        }
        yield status(TaskState.TASK_STATE_COMPLETED, 3);
      },
    } as unknown as Client;
    const err: string[] = [];
    const e: ClientEnv = {
      out: () => undefined,
      err: (t) => void err.push(t),
      env: {},
      stdoutIsTTY: false,
      readStdin: () => Promise.resolve(""),
      onInterrupt: () => () => undefined,
    };
    const seen: number[] = [];
    const view = await streamTurn(client, message, e, {
      colors: makeColors(false),
      onEvent: () => void seen.push(seen.length + 1),
    });
    expect(calls).toHaveLength(2);
    expect(calls[1]?.message?.messageId).toBe("m-1");
    expect(calls[1]?.options?.serviceParameters).toEqual({ "last-event-id": "2" });
    expect(err.join("")).toContain("reconnecting… (from event 2)");
    expect(seen).toEqual([1, 2, 3]);
    expect(view.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});
