import { describe, expect, it } from "vitest";
import { Normalizer } from "../../../src/claude/normalize.js";
import { violationIds, violationsOf } from "../../../src/claude/sandbox-violations.js";

// As the runtime sent it (0.3.332, a curl to a host not on the allowlist).
const refusedText =
  "HTTP/1.1 403 Forbidden\r\nX-Proxy-Error: blocked-by-allowlist\r\n\r\nConnection blocked by network allowlist\n" +
  "<sandbox_violations>\ndeny network-outbound example.com:80 (host is not on the allow list)\n</sandbox_violations>";

describe("the runtime's sandbox violation marker", () => {
  it("takes the ids of tool_result_meta entries whose remedy is a sandbox violation", () => {
    expect(
      violationIds([
        { id: "t1", remedy: { kind: "sandbox_violation" }, permission_decision: {} },
        { id: "t2", permission_decision: {} },
        { id: "t3", remedy: { kind: "other" } },
        "junk",
      ]),
    ).toEqual(new Set(["t1"]));
    expect(violationIds(undefined)).toEqual(new Set());
  });

  it("reads each violation line and its operation", () => {
    expect(violationsOf(refusedText)).toEqual([
      {
        operation: "network-outbound",
        line: "deny network-outbound example.com:80 (host is not on the allow list)",
      },
    ]);
    expect(violationsOf("no block")).toEqual([
      { operation: "unknown", line: "refused by the sandbox" },
    ]);
  });

  it("marks the refused tool result of a user frame, and only it", () => {
    const user = new Normalizer().normalize({
      type: "user",
      session_id: "s",
      uuid: "u",
      parent_tool_use_id: null,
      message: {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: refusedText, is_error: false },
          { type: "tool_result", tool_use_id: "t2", content: "ok", is_error: false },
        ],
      },
      tool_result_meta: [{ id: "t1", remedy: { kind: "sandbox_violation" } }, { id: "t2" }],
    });
    expect(user.kind === "user" && user.toolResults).toEqual([
      {
        toolUseId: "t1",
        isError: false,
        sandbox: [
          {
            operation: "network-outbound",
            line: "deny network-outbound example.com:80 (host is not on the allow list)",
          },
        ],
      },
      { toolUseId: "t2", isError: false },
    ]);
  });
});
