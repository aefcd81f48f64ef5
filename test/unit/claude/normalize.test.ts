import { describe, expect, it } from "vitest";
import { failureCause, Normalizer } from "../../../src/claude/normalize.js";
import { sdk } from "./support/sdk-messages.js";

describe("normalize", () => {
  it("normalizes an assistant frame with its ids, stamp and blocks", () => {
    const ev = new Normalizer().normalize(
      sdk.assistant(
        "msg_1",
        [
          { type: "text", text: "hi" },
          { type: "tool_use", id: "tu_1", name: "Bash", input: { command: "ls" } },
        ],
        { stamp: "send-1", parent: "tu_0", agentId: "task-9", aborted: true },
      ),
    );
    expect(ev).toMatchObject({
      kind: "assistant",
      messageId: "msg_1",
      parentToolUseId: "tu_0",
      agentId: "task-9",
      aborted: true,
      userMessageUuids: ["send-1"],
      content: [
        { type: "text", text: "hi" },
        { type: "tool_use", id: "tu_1", name: "Bash", input: { command: "ls" } },
      ],
    });
  });

  it("carries the API message id from message_start onto later frames of the same stream", () => {
    const n = new Normalizer();
    const start = n.normalize(sdk.messageStart("msg_A"));
    const delta = n.normalize(sdk.textDelta(0, "x"));
    const subStart = n.normalize(sdk.messageStart("msg_SUB", { parent: "tu_1" }));
    const subDelta = n.normalize(sdk.textDelta(0, "y", { parent: "tu_1" }));
    const mainStop = n.normalize(sdk.messageStop());
    const afterStop = n.normalize(sdk.textDelta(0, "z"));
    expect(start).toMatchObject({
      kind: "stream",
      messageId: "msg_A",
      part: { type: "message_start" },
    });
    expect(delta).toMatchObject({ messageId: "msg_A", part: { type: "content_block_delta" } });
    expect(subStart).toMatchObject({ messageId: "msg_SUB", streamKey: "tu_1" });
    expect(subDelta).toMatchObject({ messageId: "msg_SUB", parentToolUseId: "tu_1" });
    expect(mainStop).toMatchObject({ messageId: "msg_A", part: { type: "message_stop" } });
    // After message_stop the next frame has no message yet: it is held as a placeholder.
    expect(afterStop).toMatchObject({ messageId: undefined, streamKey: "main" });
  });

  it("normalizes results: success text, error reasons, stamps, origin, terminal reason", () => {
    const n = new Normalizer();
    expect(n.normalize(sdk.result({ text: "done", stamp: "s1" }))).toMatchObject({
      kind: "result",
      success: true,
      text: "done",
      userMessageUuids: ["s1"],
    });
    expect(n.normalize(sdk.autonomousResult("auto"))).toMatchObject({
      success: true,
      userMessageUuids: [],
      originKind: "task-notification",
    });
    expect(n.normalize(sdk.abortedResult())).toMatchObject({
      success: false,
      subtype: "error_during_execution",
      terminalReason: "aborted_streaming",
    });
  });

  it.each([
    // No credentials at all: the runtime calls nothing and says so (no HTTP status).
    ["authentication_failed", undefined, "authentication_failed"],
    // A key or token the API refuses.
    ["authentication_failed", 401, "authentication_failed"],
    [undefined, 401, "authentication_failed"],
    // The API refused the request as invalid: re-sending the conversation would repeat it.
    ["invalid_request", 400, "prompt_rejected"],
    [undefined, 400, "prompt_rejected"],
    ["rate_limit", 429, undefined],
    ["billing_error", undefined, undefined],
    [undefined, undefined, undefined],
  ] as const)("failureCause(%s, %s) is %s", (error, status, cause) => {
    expect(failureCause(error, status)).toBe(cause);
  });

  it("marks the runtime's messages about a failed login and a rejected prompt with their causes, and no other", () => {
    const n = new Normalizer();
    const noLogin = sdk.apiError("m1", "Not logged in · Please run /login", {
      error: "authentication_failed",
      stamp: "s1",
    });
    expect(n.normalize(noLogin)).toMatchObject({
      kind: "assistant",
      error: "authentication_failed",
      cause: "authentication_failed",
      userMessageUuids: ["s1"],
      content: [{ type: "text", text: "Not logged in · Please run /login" }],
    });
    const badKey = sdk.apiError("m2", "Invalid API key · Fix external API key", {
      error: "authentication_failed",
      status: 401,
    });
    expect(n.normalize(badKey)).toMatchObject({ cause: "authentication_failed" });
    const rejected = sdk.apiError("m3", "API Error: 400 bad", {
      error: "invalid_request",
      status: 400,
    });
    const ev = n.normalize(rejected);
    expect(ev).toMatchObject({
      kind: "assistant",
      error: "invalid_request",
      cause: "prompt_rejected",
    });
    expect(n.normalize(sdk.text("m4", "hello"))).not.toHaveProperty("cause");
  });

  it("keeps the HTTP status of the API call a result ended on", () => {
    const n = new Normalizer();
    expect(
      n.normalize(sdk.result({ isError: true, text: "x", apiErrorStatus: 401 })),
    ).toMatchObject({ success: false, apiErrorStatus: 401 });
    expect(n.normalize(sdk.result({ isError: true, apiErrorStatus: null }))).not.toHaveProperty(
      "apiErrorStatus",
    );
  });

  it("normalizes user frames: tool results and the interrupt marker", () => {
    const n = new Normalizer();
    expect(n.normalize(sdk.toolResult("tu_1", "ok"))).toMatchObject({
      kind: "user",
      toolResults: [{ toolUseId: "tu_1", isError: false, text: "ok" }],
      interruptMarker: false,
    });
    expect(n.normalize(sdk.interruptedMarker())).toMatchObject({
      kind: "user",
      interruptMarker: true,
    });
  });

  it("normalizes background task frames", () => {
    const n = new Normalizer();
    expect(n.normalize(sdk.taskStarted("t1", "tu_1"))).toMatchObject({
      kind: "task_started",
      taskId: "t1",
      toolUseId: "tu_1",
      isBackgrounded: true,
    });
    expect(n.normalize(sdk.taskUpdated("t1", "completed"))).toMatchObject({
      kind: "task_updated",
      status: "completed",
    });
    expect(n.normalize(sdk.taskNotification("t1", "tu_1"))).toMatchObject({
      kind: "task_notification",
      status: "completed",
      outputFile: "/tmp/t1.out",
    });
    expect(n.normalize(sdk.tasksChanged(["t1", "t2"]))).toMatchObject({
      kind: "background_tasks_changed",
      tasks: [{ taskId: "t1" }, { taskId: "t2" }],
    });
    expect(n.normalize(sdk.sessionState("idle"))).toMatchObject({
      kind: "session_state_changed",
      state: "idle",
    });
    expect(n.normalize(sdk.init())).toMatchObject({ kind: "init", model: "claude-sonnet-4-5" });
  });

  it("turns unknown and malformed frames into metadata instead of throwing", () => {
    const n = new Normalizer();
    expect(n.normalize(sdk.unknown("command_lifecycle"))).toMatchObject({
      kind: "metadata",
      type: "command_lifecycle",
    });
    expect(n.normalize({ type: "system", subtype: "brand_new" })).toMatchObject({
      kind: "metadata",
      subtype: "brand_new",
    });
    expect(n.normalize({ type: "assistant", message: null })).toMatchObject({ kind: "metadata" });
    expect(n.normalize({ type: "stream_event", event: 42 })).toMatchObject({
      kind: "stream",
      part: { type: "other" },
    });
    expect(n.normalize(null)).toMatchObject({ kind: "metadata" });
    expect(n.normalize("garbage")).toMatchObject({ kind: "metadata" });
  });
});
