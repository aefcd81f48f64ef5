import { TaskNotFoundError, VersionNotSupportedError } from "@a2a-js/sdk/errors";
import { describe, expect, it } from "vitest";
import { isClientError, redactUrls, sdkLogLine } from "../../../src/http/sdk-console.js";

describe("sdkLogLine", () => {
  it("makes a client error a debug line with its name and message, and no stack", () => {
    const err = new VersionNotSupportedError(
      "The requested A2A protocol version '0.3' is not supported.",
    );
    const line = sdkLogLine("error", ["Unhandled error in JSON-RPC POST handler:", err]);
    expect(line).toEqual({
      level: "debug",
      msg: "Unhandled error in JSON-RPC POST handler",
      fields: {
        source: "@a2a-js/sdk",
        error: {
          name: "VersionNotSupportedError",
          message: "The requested A2A protocol version '0.3' is not supported.",
        },
      },
    });
    expect(JSON.stringify(line)).not.toContain("    at ");
  });

  it("keeps a server fault at error level, its error (and stack) inside the line", () => {
    const err = new Error("disk full");
    const line = sdkLogLine("error", ["Agent execution failed for message m1:", err]);
    expect(line.level).toBe("error");
    expect(line.msg).toBe("Agent execution failed for message m1");
    expect(line.fields).toEqual({ source: "@a2a-js/sdk", err });
  });

  it("maps the other console methods to their levels; plain strings stay the message", () => {
    expect(sdkLogLine("warn", ["Task t1 not found in store."])).toEqual({
      level: "warn",
      msg: "Task t1 not found in store.",
      fields: { source: "@a2a-js/sdk" },
    });
    expect(sdkLogLine("info", ["Push notification sent"]).level).toBe("info");
    expect(sdkLogLine("log", ["x"]).level).toBe("info");
    expect(sdkLogLine("debug", ["x"]).level).toBe("debug");
  });

  it("makes what a client referenced (a task that does not exist) a debug line", () => {
    expect(sdkLogLine("warn", ['Reference task x\n{"level":60} not found.'])).toEqual({
      level: "debug",
      msg: 'Reference task x\n{"level":60} not found.',
      fields: { source: "@a2a-js/sdk" },
    });
  });

  it("never carries the credentials a webhook URL may hold", () => {
    const line = sdkLogLine("info", [
      "Push notification sent for task_id=t1 to URL: https://user:pw-123@hooks.example.com/a?token=tok-456#f",
    ]);
    expect(line.msg).toBe(
      "Push notification sent for task_id=t1 to URL: https://[redacted]@hooks.example.com/a?[redacted]#f",
    );
    expect(redactUrls("see http://example.com/x and ftp://h/y")).toBe(
      "see http://example.com/x and ftp://h/y",
    );
  });

  it("knows the SDK's client errors by name", () => {
    expect(isClientError(new TaskNotFoundError("Task not found: x"))).toBe(true);
    expect(isClientError(new Error("boom"))).toBe(false);
    expect(isClientError("TaskNotFoundError")).toBe(false);
  });
});
