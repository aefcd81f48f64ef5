import { TaskNotFoundError, VersionNotSupportedError } from "@a2a-js/sdk/errors";
import { describe, expect, it } from "vitest";
import { isClientError, sdkLogLine } from "../../../src/http/sdk-console.js";

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
    expect(sdkLogLine("warn", ["Reference task r1 not found."])).toEqual({
      level: "warn",
      msg: "Reference task r1 not found.",
      fields: { source: "@a2a-js/sdk" },
    });
    expect(sdkLogLine("info", ["Push notification sent"]).level).toBe("info");
    expect(sdkLogLine("log", ["x"]).level).toBe("info");
    expect(sdkLogLine("debug", ["x"]).level).toBe("debug");
  });

  it("knows the SDK's client errors by name", () => {
    expect(isClientError(new TaskNotFoundError("Task not found: x"))).toBe(true);
    expect(isClientError(new Error("boom"))).toBe(false);
    expect(isClientError("TaskNotFoundError")).toBe(false);
  });
});
